"""The tools floor: a toolchain of the version this package's manifest declares must be able to
resolve it. That holds when every pinned dependency's manifest (the one that toolchain would read)
declares no newer tools version, when the Benchmarks package declares the same one, and when the
Apple workflow builds with the Xcode whose Swift is that version (it then proves the floor).
"""
import json
import os
import subprocess
from dataclasses import dataclass, field

from .manifests import ManifestError, ToolsVersion, select_manifest, tools_version_of
from .xcode import SWIFT_OF_XCODE, selected_xcodes, swift_of_xcode


class FloorError(Exception):
    """The check cannot run (no Package.resolved, no checkout …)."""


@dataclass
class Result:
    floor: ToolsVersion
    problems: list = field(default_factory=list)
    notes: list = field(default_factory=list)


def read_pins(resolved_path: str) -> list:
    """[(identity, location, revision, version or branch)] of a Package.resolved (formats 1 to 3)."""
    try:
        with open(resolved_path) as handle:
            data = json.load(handle)
    except FileNotFoundError:
        raise FloorError(f"no {resolved_path} (SwiftPM writes it when it resolves: `swift build` "
                         "or `swift package resolve`)") from None
    pins = data.get("pins") or data.get("object", {}).get("pins") or []
    found = []
    for pin in pins:
        identity = pin.get("identity") or pin.get("package", "")
        location = pin.get("location") or pin.get("repositoryURL", "")
        state = pin.get("state", {})
        found.append((identity, location, state.get("revision", ""),
                      state.get("version") or state.get("branch") or state.get("revision", "")[:12]))
    return found


def checkout_directory(checkouts: str, location: str) -> str:
    """Where SwiftPM checks a remote dependency out: its URL's last component, without `.git`."""
    name = location.rstrip("/").rsplit("/", 1)[-1]
    return os.path.join(checkouts, name[:-4] if name.endswith(".git") else name)


def _head(directory):
    completed = subprocess.run(["git", "-C", directory, "rev-parse", "HEAD"], capture_output=True, text=True)
    return completed.stdout.strip() if completed.returncode == 0 else None


def check_dependencies(package: str, resolved: str, checkouts: str, floor: ToolsVersion, result: Result):
    for identity, location, revision, version in read_pins(resolved):
        directory = checkout_directory(checkouts, location) if location.startswith(("http", "git", "ssh")) \
            else location
        shown = os.path.relpath(directory, package)
        if not os.path.isdir(directory):
            raise FloorError(f"{identity} is pinned but not checked out at {shown} (run `swift package resolve`)")
        if revision and os.path.exists(os.path.join(directory, ".git")):
            head = _head(directory)
            if head and head != revision:
                raise FloorError(f"{shown} is at {head[:12]}, Package.resolved pins {revision[:12]} "
                                 "(run `swift package resolve`)")
        try:
            manifest, declared = select_manifest(directory, floor)
        except ManifestError as error:
            raise FloorError(str(error)) from None
        where = os.path.relpath(manifest, package)
        if declared.language > floor.language:
            result.problems.append(
                f"{identity} {version} ({where}) declares swift-tools-version {declared}, newer than this "
                f"package's {floor}: a Swift {floor} toolchain stops resolving the package there")
        else:
            result.notes.append(f"{identity} {version}: {where} declares {declared}")


def check_benchmarks(root: str, floor: ToolsVersion, result: Result):
    manifest = os.path.join(root, "Benchmarks", "Package.swift")
    if not os.path.exists(manifest):
        return
    declared = tools_version_of(manifest)
    if declared.language != floor.language:
        result.problems.append(f"Benchmarks/Package.swift declares swift-tools-version {declared}, "
                               f"the package {floor}: the two name one floor")
    else:
        result.notes.append(f"Benchmarks/Package.swift declares {declared}")


def check_workflow(root: str, workflow: str, floor: ToolsVersion, result: Result):
    path = os.path.join(root, workflow)
    if not os.path.exists(path):
        return
    with open(path) as handle:
        xcodes = selected_xcodes(handle.read())
    if not xcodes:
        result.problems.append(f"{workflow} selects no Xcode (DEVELOPER_DIR, xcode-select or xcode-version): "
                               "it builds with the runner's default, whatever Swift that is")
    for xcode in xcodes:
        swift = swift_of_xcode(xcode)
        if swift is None:
            result.problems.append(f"{workflow} selects Xcode {xcode}, which the table of Xcode releases "
                                   f"(scripts/lib/toolsfloor/xcode.py, from Apple's Xcode system requirements) "
                                   f"does not know; it knows {', '.join(SWIFT_OF_XCODE)}")
        elif swift.language != floor.language:
            result.problems.append(f"{workflow} selects Xcode {xcode} (Swift {swift}), the package declares "
                                   f"swift-tools-version {floor}: the Apple workflow should build with the "
                                   f"floor's Swift ({floor})")
        else:
            result.notes.append(f"{workflow}: Xcode {xcode} ships Swift {swift}")


def run(root: str, resolved=None, checkouts=None, workflow=".github/workflows/apple.yml") -> Result:
    root = os.path.realpath(root)
    floor = tools_version_of(os.path.join(root, "Package.swift"))
    result = Result(floor=floor)
    check_dependencies(root, resolved or os.path.join(root, "Package.resolved"),
                       checkouts or os.path.join(root, ".build", "checkouts"), floor, result)
    check_benchmarks(root, floor, result)
    check_workflow(root, workflow, floor, result)
    return result
