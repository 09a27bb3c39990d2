"""Parse trees of source files: the compiler's (`swift-frontend -dump-parse`), read into scopes.

The compiler parses a prepared copy of each file (`sourcetext.SourceText.prepared_for_parse`),
many files per run; a `main.swift` holds top-level code, which the compiler accepts only in a
file of that name parsed alone.
"""
import json
import os
import subprocess

from .scopes import FileScopes, ParseTreeError
from .sourcetext import scan


class ParseError(Exception):
    """The compiler could not parse a file, or printed what cannot be read."""


def _frontend(swift):
    return os.path.join(os.path.dirname(os.path.realpath(swift)), "swift-frontend")


def parse_files(paths, swift, work_dir):
    """{path: (SourceText, FileScopes)} for `paths`, through `swift-frontend -dump-parse` on
    prepared copies (sourcetext.py). A file called main.swift is parsed alone (top-level code)."""
    sources, copies, result = {}, {}, {}
    for index, path in enumerate(sorted(paths)):
        with open(path, "rb") as handle:
            source = scan(handle.read())
        sources[path] = source
        if b"available" not in source.text:
            # No `@available`, `#available` or `#unavailable`: no scope to read.
            result[path] = (source, FileScopes.empty(source))
            continue
        copy = os.path.join(work_dir, str(index), os.path.basename(path))
        os.makedirs(os.path.dirname(copy), exist_ok=True)
        with open(copy, "wb") as handle:
            handle.write(source.prepared_for_parse())
        copies[copy] = path
    groups = [[c for c in copies if os.path.basename(c) != "main.swift"]]
    groups += [[c] for c in copies if os.path.basename(c) == "main.swift"]
    for group in filter(None, groups):
        for start in range(0, len(group), 400):
            chunk = group[start:start + 400]
            command = [_frontend(swift), "-frontend", "-dump-parse", "-dump-ast-format", "json"]
            for copy in chunk:
                command += ["-primary-file", copy]
            completed = subprocess.run(command, capture_output=True, text=True)
            if completed.returncode != 0 or completed.stderr.strip():
                message = completed.stderr.strip()
                for copy, original in copies.items():
                    message = message.replace(copy, original)
                raise ParseError(f"parsing failed:\n{message[:4000]}")
            trees = parse_trees(completed.stdout)
            if len(trees) != len(chunk):
                raise ParseError(f"the compiler printed {len(trees)} parse trees for {len(chunk)} files")
            for tree in trees:
                original = copies[tree["filename"]]
                try:
                    result[original] = (sources[original], FileScopes(tree, sources[original]))
                except ParseTreeError as error:
                    raise ParseError(f"{original}: {error}") from None
    return result



def parse_trees(output: str):
    """The source_file objects of a `swift-frontend -dump-parse -dump-ast-format json` run."""
    decoder, index, trees = json.JSONDecoder(), 0, []
    while index < len(output):
        while index < len(output) and output[index].isspace():
            index += 1
        if index >= len(output):
            break
        try:
            tree, index = decoder.raw_decode(output, index)
        except json.JSONDecodeError as error:
            raise ParseError(f"the compiler's parse tree is not JSON ({error})") from None
        trees.append(tree)
    return trees
