"""Which manifest SwiftPM reads in a package directory, and the tools version it declares.

Pure functions over a directory listing and file contents, after SwiftPM 6.x
(`ToolsVersionParser.parse` and `ManifestLoader.findManifest`, unchanged from 6.0 to 6.3).
"""
import os
import re
from dataclasses import dataclass
from functools import total_ordering

# `// swift-tools-version:6.2`, `// swift-tools-version: 6.1.0`, `//swift-tools-version:5.3;(x)`:
# the label is case-insensitive and the spacing around it is free (SwiftPM 5.4 and later).
_SPECIFICATION = re.compile(r"^//\s*swift-tools-version:\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?", re.IGNORECASE)
_VERSION_SPECIFIC = re.compile(r"^Package@swift-(\d+)(?:\.(\d+))?(?:\.(\d+))?\.swift$")


@total_ordering
@dataclass(frozen=True)
class ToolsVersion:
    major: int
    minor: int = 0
    patch: int = 0

    @staticmethod
    def parse(text: str) -> "ToolsVersion":
        match = re.fullmatch(r"\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*", text)
        if not match:
            raise ValueError(f"not a version: {text!r}")
        return ToolsVersion(*(int(part or 0) for part in match.groups()))

    def __lt__(self, other):
        return (self.major, self.minor, self.patch) < (other.major, other.minor, other.patch)

    def __str__(self):
        return f"{self.major}.{self.minor}" + (f".{self.patch}" if self.patch else "")

    @property
    def language(self):
        """Major and minor: what a toolchain release line is named by (Swift 6.1, 6.2)."""
        return ToolsVersion(self.major, self.minor)


# A manifest without a specification line is tools version 3.1 (SwiftPM's documented default).
TOOLS_VERSION_3 = ToolsVersion(3, 1)


class ManifestError(Exception):
    """A package directory has no readable manifest."""


def declared_tools_version(text: str) -> ToolsVersion:
    """The tools version a manifest's first line declares."""
    first = text.split("\n", 1)[0].strip()
    match = _SPECIFICATION.match(first)
    if not match:
        return TOOLS_VERSION_3
    return ToolsVersion(*(int(part or 0) for part in match.groups()))


def tools_version_of(path: str) -> ToolsVersion:
    try:
        with open(path, encoding="utf-8") as handle:
            return declared_tools_version(handle.read(4096))
    except OSError as error:
        raise ManifestError(f"cannot read {path}: {error.strerror}") from None


def select_manifest(directory: str, toolchain: ToolsVersion):
    """(path, tools version) of the manifest a toolchain of version `toolchain` reads in `directory`.

    As SwiftPM: a `Package@swift-M.m.p.swift`, `…M.m.swift` or `…M.swift` named for the toolchain's
    own version wins outright; otherwise the newest `Package@swift-*.swift` not newer than the
    toolchain is taken when its tools version is newer than `Package.swift`'s, or when
    `Package.swift` needs a newer toolchain; otherwise `Package.swift`.
    """
    names = set(os.listdir(directory))
    for key in (f"{toolchain.major}.{toolchain.minor}.{toolchain.patch}",
                f"{toolchain.major}.{toolchain.minor}", f"{toolchain.major}"):
        name = f"Package@swift-{key}.swift"
        if name in names:
            path = os.path.join(directory, name)
            return path, tools_version_of(path)
    regular = os.path.join(directory, "Package.swift")
    if "Package.swift" not in names:
        raise ManifestError(f"no Package.swift in {directory}")
    regular_version = tools_version_of(regular)
    candidates = {}
    for name in names:
        match = _VERSION_SPECIFIC.match(name)
        if match:
            candidates[ToolsVersion(*(int(part or 0) for part in match.groups()))] = name
    usable = sorted((v for v in candidates if v <= toolchain), reverse=True)
    if not usable:
        return regular, regular_version
    path = os.path.join(directory, candidates[usable[0]])
    specific_version = TOOLS_VERSION_3 if usable[0] < ToolsVersion(4) else tools_version_of(path)
    if specific_version > regular_version or regular_version > toolchain:
        return path, specific_version
    return regular, regular_version
