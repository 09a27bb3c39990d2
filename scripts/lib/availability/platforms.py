"""Apple platforms, versions, and the deployment floors a package declares.

Pure values and functions: no process, no file.
"""
import re
from dataclasses import dataclass
from functools import total_ordering

# The Apple platforms the check knows, in the order the output lists them, with the
# spellings of `@available`/`#available` (the compiler's domain names) and of SwiftPM's
# `dump-package` JSON (`platformName`).
PLATFORMS = ("macOS", "iOS", "tvOS", "watchOS", "visionOS")
_SWIFTPM_NAMES = {"macos": "macOS", "ios": "iOS", "tvos": "tvOS", "watchos": "watchOS",
                  "visionos": "visionOS"}
# `@available` domains that name one of PLATFORMS under another spelling.
_DOMAIN_ALIASES = {"OSX": "macOS", "xrOS": "visionOS"}


@total_ordering
@dataclass(frozen=True)
class Version:
    """A dotted version (`15`, `17.4`, `10.15.1`); missing components are zero."""
    parts: tuple

    @staticmethod
    def parse(text) -> "Version":
        if isinstance(text, Version):
            return text
        if isinstance(text, dict):  # a symbol graph's {"major": 15, "minor": 0}
            return Version((text.get("major", 0), text.get("minor", 0), text.get("patch", 0)))
        match = re.fullmatch(r"\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*", str(text))
        if not match:
            raise ValueError(f"not a version: {text!r}")
        return Version(tuple(int(p) if p else 0 for p in match.groups()))

    def _key(self):
        parts = list(self.parts) + [0] * (3 - len(self.parts))
        return tuple(parts[:3])

    def __eq__(self, other):
        return isinstance(other, Version) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __lt__(self, other):
        return self._key() < other._key()

    def __str__(self):
        major, minor, patch = self._key()
        if patch:
            return f"{major}.{minor}.{patch}"
        return f"{major}.{minor}" if minor else f"{major}"


def platform_for_domain(domain: str):
    """The platform an availability domain names, or None (`*`, `swift`, app-extension domains…)."""
    domain = _DOMAIN_ALIASES.get(domain, domain)
    return domain if domain in PLATFORMS else None


# visionOS takes a declaration's iOS availability when the declaration says nothing about
# visionOS (the compiler's `inheritsAvailabilityFromPlatform(visionOS, iOS)`), with the iOS
# version mapped to visionOS through the SDK's `VersionMap.iOS_xrOS` and clang's
# `RelatedTargetVersionMapping::map`: below the first key gives the first value (so iOS 13
# and iOS 17.0 are visionOS 1.0), an unlisted minor falls back to its major, a major-only
# key that is missing gives nothing, above the last key gives the last value. The map is
# the one of the visionOS 26 SDK (as the Swift compiler's own tests quote it). It applies
# to declarations only: `#available(iOS …)` is not a visionOS query (the compiler's
# `isPlatformActive(…, ForRuntimeQuery)`), so on visionOS it is the `*` case.
IOS_TO_VISIONOS = {
    (17, 1): (1, 0), (17, 4): (1, 1), (17, 5): (1, 2),
    (18, 0): (2, 0), (18, 1): (2, 1), (18, 2): (2, 2), (18, 3): (2, 3), (18, 4): (2, 4),
    (18, 5): (2, 5), (18, 6): (2, 6), (19, 4): (3, 4),
    (26, 0): (26, 0), (26, 2): (26, 2), (26, 3): (26, 3), (26, 4): (26, 4),
}


def visionos_from_ios(ios: Version):
    """The visionOS version an iOS `introduced:` version stands for, or None when the map has none."""
    keys = sorted(IOS_TO_VISIONOS)
    key = ios._key()[:2]
    if key < keys[0]:
        return Version(IOS_TO_VISIONOS[keys[0]])
    if key > keys[-1]:
        return Version(IOS_TO_VISIONOS[keys[-1]])
    if key in IOS_TO_VISIONOS:
        return Version(IOS_TO_VISIONOS[key])
    if key[1]:
        return visionos_from_ios(Version((key[0],)))
    return None


# SwiftPM's deployment target for a platform a manifest does not list
# (`Platform.oldestSupportedVersion` in PackageModel/Platform.swift, the same in SwiftPM
# 6.0 through 6.3; `PlatformVersionProvider.getDerived` uses it for an undeclared platform).
# A declared version below it is raised to it.
SWIFTPM_DEFAULT_FLOORS = {
    "macOS": Version.parse("10.13"), "iOS": Version.parse("12.0"), "tvOS": Version.parse("12.0"),
    "watchOS": Version.parse("4.0"), "visionOS": Version.parse("1.0"),
}


def floors_from_dump_package(manifest: dict, only=None) -> dict:
    """The floor of every Apple platform for a package, from `swift package dump-package` JSON.

    Declared platforms take their declared version (raised to SwiftPM's oldest supported one,
    as SwiftPM does); the others take SwiftPM's default. `only` limits the result to some
    platforms.
    """
    floors = dict(SWIFTPM_DEFAULT_FLOORS)
    for entry in manifest.get("platforms") or []:
        platform = _SWIFTPM_NAMES.get(entry.get("platformName", "").lower())
        if platform:
            floors[platform] = max(Version.parse(entry["version"]), SWIFTPM_DEFAULT_FLOORS[platform])
    if only is not None:
        floors = {p: v for p, v in floors.items() if p in only}
    return floors


def declared_platforms(manifest: dict) -> list:
    """The Apple platforms a manifest lists in `platforms:`."""
    names = [_SWIFTPM_NAMES.get(e.get("platformName", "").lower()) for e in manifest.get("platforms") or []]
    return [p for p in PLATFORMS if p in names]


def parse_floors(text: str) -> dict:
    """`macOS=13,iOS=16` → {"macOS": Version(13), "iOS": Version(16)} (fixtures and the command line)."""
    floors = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, _, version = item.partition("=")
        platform = platform_for_domain(name.strip())
        if not platform:
            raise ValueError(f"not an Apple platform: {name!r} (one of {', '.join(PLATFORMS)})")
        floors[platform] = Version.parse(version)
    return floors


def describe_versions(versions: dict) -> str:
    """{"macOS": 15, "iOS": 18} → "macOS 15, iOS 18", in PLATFORMS order."""
    return ", ".join(f"{p} {versions[p]}" for p in PLATFORMS if p in versions)
