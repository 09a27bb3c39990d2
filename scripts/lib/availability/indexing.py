"""Index sources that `swift build` does not: the Benchmarks package and the fixtures.

One `swift-frontend -typecheck` run per module, every file a primary with an output name of
its own: the index names its units after the outputs (without them every file's unit would
be written under one name and only the last would remain); `-typecheck` writes nothing else.
No code is generated, so this costs a type-check of these files, not a build.
"""
import os
import subprocess


class IndexingError(Exception):
    """The compiler refused the sources."""


def frontend(swift: str) -> str:
    return os.path.join(os.path.dirname(os.path.realpath(swift)), "swift-frontend")


def plugin_path(swift: str) -> str:
    usr = os.path.dirname(os.path.dirname(os.path.realpath(swift)))
    return os.path.join(usr, "lib", "swift", "host", "plugins")


def index_module(swift, sources, module_name, store, target, extra=()):
    """Type-checks `sources` as module `module_name` for `target`, writing their index to `store`.

    `extra`: more frontend arguments (search paths, `-D` flags, `-parse-stdlib` …)."""
    command = [frontend(swift), "-frontend", "-typecheck", "-target", target,
               "-module-name", module_name, "-index-store-path", store,
               "-plugin-path", plugin_path(swift), *extra]
    if not any(os.path.basename(s) == "main.swift" for s in sources):
        command.append("-parse-as-library")
    for source in sources:
        command += ["-primary-file", source]
    outputs = os.path.join(store, "outputs", module_name)
    for number, source in enumerate(sources):
        command += ["-o", os.path.join(outputs, f"{number}-{os.path.basename(source)}.o")]
    completed = subprocess.run(command, capture_output=True, text=True)
    if completed.returncode != 0:
        raise IndexingError(completed.stderr.strip()[-3000:])
    return completed
