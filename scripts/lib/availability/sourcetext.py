"""A lexical pass over one Swift source file: where its comments and string literals are, its
`#if` directives, and its attributes.

The compiler's parse tree (`-dump-parse`) leaves out everything between `#if` and `#endif`
and prints some attributed types wrongly, so the check parses a copy of each file prepared
here: directive lines and attributes other than `@available` become spaces (byte offsets,
and so the index's lines and columns, stay the same), and every clause of every `#if` is
parsed. Which clauses an Apple platform compiles is decided separately (`conditions.py`).

Known gap: a bare-slash regex literal (`/a"b/`) holding a quote would be read as the start of
a string; `#/…/#` literals are handled.
"""
import bisect
import re
from dataclasses import dataclass, field

_IDENT = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")
# The characters where the lexer has something to decide, in code and in a string literal.
_CODE_STOPS = re.compile(rb'[\n/#"@()]')
_STRING_STOPS = re.compile(rb'[\n"\\]')


@dataclass
class Directive:
    kind: str        # "if", "elseif", "else", "endif"
    start: int       # offset of the `#`
    end: int         # offset just past the directive (its condition included, its newline not)
    condition: str   # the condition's text ("" for else/endif)
    line: int


@dataclass
class Attribute:
    name: str
    start: int
    end: int         # just past the name or its closing parenthesis


@dataclass
class SourceText:
    text: bytes
    directives: list = field(default_factory=list)
    attributes: list = field(default_factory=list)
    comments: list = field(default_factory=list)   # (start, end) of comments
    line_starts: list = field(default_factory=list)

    def offset(self, line: int, column: int) -> int:
        """Byte offset of a 1-based line and UTF-8 column (the index's positions)."""
        return self.line_starts[line - 1] + column - 1

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.line_starts, offset)

    def prepared_for_parse(self) -> bytes:
        """The text with directives and non-`@available` attributes turned into spaces."""
        out = bytearray(self.text)

        def blank(start, end):
            for i in range(start, end):
                if out[i] not in (0x0A, 0x0D):
                    out[i] = 0x20

        for d in self.directives:
            blank(d.start, d.end)
        for a in self.attributes:
            if a.name == "available":
                continue
            blank(a.start, a.end)
            # `{ @MainActor in …}`: a closure whose only signature was the attribute needs one.
            rest = self.text[a.end:a.end + 40].lstrip()
            if rest.startswith(b"in") and (len(rest) == 2 or chr(rest[2]) not in _IDENT):
                out[a.start:a.start + 2] = b"()"
        return bytes(out)


def scan(text: bytes) -> SourceText:
    """Lexes `text` (a Swift file's bytes)."""
    result = SourceText(text=text)
    n = len(text)
    result.line_starts = [0] + [m.end() for m in re.finditer(rb"\n", text)]
    # Modes on a stack: ("code", paren_depth) inside an interpolation, ("string", hashes, multiline).
    stack = [["code", 0]]
    i = 0
    at_line_start = True

    def ch(k):
        return chr(text[k]) if k < n else ""

    while i < n:
        mode = stack[-1]
        c = ch(i)
        if mode[0] == "string":
            stop = _STRING_STOPS.search(text, i)
            if not stop:
                break
            i = stop.start()
            c = ch(i)
            hashes, multiline = mode[1], mode[2]
            if c == "\\" and text[i + 1:i + 1 + hashes] == b"#" * hashes:
                j = i + 1 + hashes
                if ch(j) == "(":
                    stack.append(["code", 1])
                    i = j + 1
                    continue
                i = j + 1
                continue
            quote = b'"""' if multiline else b'"'
            if text.startswith(quote, i) and text[i + len(quote):i + len(quote) + hashes] == b"#" * hashes:
                stack.pop()
                i += len(quote) + hashes
                at_line_start = False
                continue
            if c == "\n" and not multiline:
                stack.pop()  # an unterminated literal: the compiler reports it, we go on
            i += 1
            continue

        # Code: jump to the next character that matters; what lies between is on this line.
        stop = _CODE_STOPS.search(text, i)
        if not stop:
            break
        if stop.start() > i and text[i:stop.start()].strip():
            at_line_start = False
        i = stop.start()
        c = ch(i)
        if c == "\n":
            at_line_start = True
            i += 1
            continue
        if text.startswith(b"//", i):
            end = text.find(b"\n", i)
            end = n if end < 0 else end
            result.comments.append((i, end))
            i = end
            continue
        if text.startswith(b"/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith(b"/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith(b"*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            result.comments.append((i, j))
            i = j
            continue
        line_start, at_line_start = at_line_start, False
        if c == "#":
            j = i + 1
            while j < n and text[j] == 0x23:
                j += 1
            hashes = j - i
            if text.startswith(b"/", j):  # `#/regex/#`
                close = text.find(b"/" + b"#" * hashes, j + 1)
                i = n if close < 0 else close + 1 + hashes
                continue
            if text.startswith(b'"', j):
                multiline = text.startswith(b'"""', j)
                stack.append(["string", hashes, multiline])
                i = j + (3 if multiline else 1)
                continue
            word_end = i + 1
            while word_end < n and chr(text[word_end]) in _IDENT:
                word_end += 1
            word = text[i + 1:word_end].decode()
            if word in ("error", "warning") and ch(word_end) == "(":
                # A compile-time diagnostic, only ever in a clause some platform does not take.
                result.directives.append(Directive(word, i, _skip_parens(text, word_end), "",
                                                   result.line_of(i)))
                i = result.directives[-1].end
                continue
            if line_start and word in ("if", "elseif", "else", "endif"):
                end = _directive_end(text, word_end)
                condition = text[word_end:end].decode("utf-8", "replace")
                result.directives.append(Directive(word, i, end, condition.strip(),
                                                   result.line_of(i)))
                i = end
                continue
            i = word_end
            continue
        if c == '"':
            multiline = text.startswith(b'"""', i)
            stack.append(["string", 0, multiline])
            i += 3 if multiline else 1
            continue
        if c == "@":
            j = i + 1
            while j < n and chr(text[j]) in _IDENT:
                j += 1
            name = text[i + 1:j].decode()
            if name and ch(j) == "(":
                j = _skip_parens(text, j)
            if name:
                result.attributes.append(Attribute(name, i, j))
            i = max(j, i + 1)
            continue
        if len(stack) > 1:  # inside an interpolation: its parentheses end it
            if c == "(":
                mode[1] += 1
            elif c == ")":
                mode[1] -= 1
                if mode[1] == 0:
                    stack.pop()
        i += 1
    return result


def _directive_end(text: bytes, start: int) -> int:
    """End of a directive's condition: its line, or further while a parenthesis is open; a
    trailing `//` comment is left out."""
    depth, i, n = 0, start, len(text)
    while i < n:
        c = text[i]
        if c == 0x0A and depth <= 0:
            break
        if text.startswith(b"//", i) and depth <= 0:
            break
        if c == 0x28:
            depth += 1
        elif c == 0x29:
            depth -= 1
        i += 1
    while i > start and text[i - 1] in (0x20, 0x09, 0x0D):
        i -= 1
    return i


def _skip_parens(text: bytes, start: int) -> int:
    """Offset just past the parenthesis that closes the one at `start`, over nested ones and strings."""
    depth, i, n = 0, start, len(text)
    while i < n:
        c = text[i]
        if c == 0x22:  # a string inside the arguments: skip to its closing quote
            i += 1
            while i < n and text[i] != 0x22:
                i += 2 if text[i] == 0x5C else 1
        elif c == 0x28:
            depth += 1
        elif c == 0x29:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n
