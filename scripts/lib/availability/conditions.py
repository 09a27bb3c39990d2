"""Which `#if` clauses each platform compiles.

A clause's condition is evaluated per platform in three values: True, False, or None when
the platform does not decide it (`DEBUG`, `arch(…)`, `swift(>=…)`, `canImport` of a module
this table does not know …). The check skips a use for a platform only where that platform
certainly does not compile it; "maybe" counts as compiled, so an unknown condition can add
a finding, never hide one. "Linux" is evaluated too, to cross-check the evaluation against
the index (which holds only what Linux compiled).
"""
import re
from dataclasses import dataclass

from .platforms import PLATFORMS

LINUX = "Linux"

_OS_NAMES = {"macOS": "macOS", "OSX": "macOS", "iOS": "iOS", "tvOS": "tvOS", "watchOS": "watchOS",
             "visionOS": "visionOS", "Linux": LINUX}

# `canImport(X)` on Apple platforms: modules every Apple SDK has, modules of one family only,
# and modules no Apple SDK has. Anything else is undecided.
_APPLE_MODULES = {"Darwin", "Foundation", "Dispatch", "ObjectiveC", "CoreFoundation", "Combine",
                  "Observation", "os", "OSLog", "Security", "Network", "CryptoKit", "SwiftUI",
                  "Synchronization", "_Concurrency", "Swift", "CoreGraphics"}
_FAMILY_MODULES = {"UIKit": {"iOS", "tvOS", "visionOS"}, "AppKit": {"macOS"}, "WatchKit": {"watchOS"},
                   "BackgroundTasks": {"iOS", "tvOS", "visionOS", "macOS"}}
_NON_APPLE_MODULES = {"Glibc", "Musl", "Bionic", "Android", "WinSDK", "WASILibc", "CRT", "ucrt",
                      "FoundationNetworking", "FoundationXML"}
# `canImport(X)` on Linux with this toolchain (the cross-check only needs the ones in use).
_LINUX_MODULES = {"Glibc", "Foundation", "FoundationNetworking", "FoundationXML", "FoundationEssentials",
                  "Dispatch", "Observation", "Synchronization", "Swift", "_Concurrency", "SwiftGlibc"}
_NOT_LINUX_MODULES = {"Darwin", "ObjectiveC", "UIKit", "AppKit", "WatchKit", "Combine", "SwiftUI",
                      "Musl", "Bionic", "Android", "WinSDK", "WASILibc", "os", "OSLog", "CoreFoundation",
                      "Security", "Network", "CryptoKit", "BackgroundTasks"}


def evaluate(condition: str, platform: str):
    """True, False or None (undecided) for `condition` (the text after `#if`) on `platform`."""
    tokens = re.findall(r"\|\||&&|!|\(|\)|,|[^\s()!&|,]+", condition)
    parser = _Parser(tokens, platform)
    value = parser.expression()
    if parser.position != len(tokens):
        return None
    return value


class _Parser:
    def __init__(self, tokens, platform):
        self.tokens, self.position, self.platform = tokens, 0, platform

    def peek(self):
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def take(self):
        token = self.peek()
        self.position += 1
        return token

    def expression(self):
        value = self.conjunction()
        while self.peek() == "||":
            self.take()
            value = _or(value, self.conjunction())
        return value

    def conjunction(self):
        value = self.unary()
        while self.peek() == "&&":
            self.take()
            value = _and(value, self.unary())
        return value

    def unary(self):
        if self.peek() == "!":
            self.take()
            value = self.unary()
            return None if value is None else not value
        if self.peek() == "(":
            self.take()
            value = self.expression()
            if self.peek() == ")":
                self.take()
            return value
        name = self.take()
        if name is None:
            return None
        if self.peek() == "(":
            self.take()
            depth, arguments = 1, []
            while self.peek() is not None:
                token = self.take()
                if token == "(":
                    depth += 1
                elif token == ")":
                    depth -= 1
                    if depth == 0:
                        break
                arguments.append(token)
            return _atom(name, arguments, self.platform)
        if name == "true":
            return True
        if name == "false":
            return False
        return None  # a -D flag such as DEBUG: the same on every platform, decided by the build


def _and(a, b):
    if a is False or b is False:
        return False
    return None if a is None or b is None else True


def _or(a, b):
    if a is True or b is True:
        return True
    return None if a is None or b is None else False


def _atom(name, arguments, platform):
    argument = arguments[0] if arguments else ""
    apple = platform in PLATFORMS
    if name == "os":
        named = _OS_NAMES.get(argument)
        if named is None:
            return False if argument in ("Windows", "Android", "FreeBSD", "OpenBSD", "WASI", "Cygwin",
                                         "Haiku", "PS4", "none") else None
        return named == platform
    if name == "canImport":
        if apple:
            if argument in _APPLE_MODULES:
                return True
            if argument in _FAMILY_MODULES:
                return platform in _FAMILY_MODULES[argument]
            if argument in _NON_APPLE_MODULES:
                return False
            return None
        if argument in _LINUX_MODULES:
            return True
        if argument in _NOT_LINUX_MODULES:
            return False
        return None
    if name == "targetEnvironment":
        if argument == "macCatalyst":
            return False  # the check covers the platforms the manifest declares; Mac Catalyst is not one
        return None if apple else False
    if name == "_runtime":
        return (argument == "_ObjC") == apple
    if name == "_endian":
        return argument == "little"
    return None  # arch, compiler, swift, hasFeature, hasAttribute, _pointerBitWidth …


@dataclass(frozen=True)
class Region:
    """One clause of an `#if`: the bytes it spans and, per platform, whether it is compiled."""
    start: int
    end: int
    line: int
    condition: str
    active: tuple  # ((platform, True/False/None), …)

    def activity(self, platform):
        return dict(self.active).get(platform)


def regions(directives, platforms=PLATFORMS + (LINUX,)) -> list:
    """The clauses of every `#if` block, each with its activity per platform.

    A clause is active when its condition holds and no earlier clause of its block held; nested
    blocks are separate regions (a use is compiled only where every enclosing clause is).
    """
    found, stack = [], []
    for d in directives:
        if d.kind in ("error", "warning"):
            continue
        if d.kind == "if":
            stack.append({"previous": {p: False for p in platforms}, "open": None})
        if not stack:
            continue  # an #else or #endif without #if: the compiler reports it
        block = stack[-1]
        if block["open"] is not None:
            start, line, condition, active = block["open"]
            found.append(Region(start, d.start, line, condition, tuple(active.items())))
            block["open"] = None
        if d.kind == "endif":
            stack.pop()
            continue
        active = {}
        for p in platforms:
            value = True if d.kind == "else" else evaluate(d.condition, p)
            earlier = block["previous"][p]
            active[p] = _and(value, None if earlier is None else not earlier)
            block["previous"][p] = _or(earlier, value)
        block["open"] = (d.end, d.line, f"#{d.kind} {d.condition}".strip(), active)
    return found


def activity_at(found, offset, platform):
    """Whether `platform` compiles the byte at `offset`: False if some enclosing clause is
    certainly not compiled, True if all are, None otherwise."""
    value = True
    for region in found:
        if region.start <= offset < region.end:
            value = _and(value, region.activity(platform))
    return value
