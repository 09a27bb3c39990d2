"""The Xcode a GitHub workflow selects, and the Swift version that Xcode ships."""
import re

from .manifests import ToolsVersion

# Xcode → the Swift compiler it ships, from Apple's "Xcode system requirements" page
# (developer.apple.com/xcode/system-requirements, column "Swift"). Only the release line
# (major.minor) matters here: it is what a manifest's tools version names.
SWIFT_OF_XCODE = {
    "15.0": "5.9", "15.1": "5.9", "15.2": "5.9", "15.3": "5.10", "15.4": "5.10",
    "16.0": "6.0", "16.1": "6.0.2", "16.2": "6.0.3", "16.3": "6.1", "16.4": "6.1.2",
    "26.0": "6.2", "26.0.1": "6.2", "26.1": "6.2.1", "26.1.1": "6.2.1", "26.2": "6.2.3", "26.3": "6.2.3",
}

# `DEVELOPER_DIR: /Applications/Xcode_16.4.app/…`, `xcode-select -s /Applications/Xcode_26.0.app`,
# and setup-xcode's `xcode-version: '16.4'`.
_APP = re.compile(r"Xcode[_-](\d+(?:\.\d+){0,2})\.app")
_INPUT = re.compile(r"xcode-version:\s*['\"]?(\d+(?:\.\d+){0,2})")


def selected_xcodes(workflow_text: str) -> list:
    """Every Xcode version the workflow names in a path or an xcode-version input, in order, once."""
    found = []
    for line in workflow_text.splitlines():
        code = line.split("#", 1)[0]
        for match in list(_APP.finditer(code)) + list(_INPUT.finditer(code)):
            if match.group(1) not in found:
                found.append(match.group(1))
    return found


def swift_of_xcode(version: str):
    """The Swift version an Xcode ships (ToolsVersion), or None when the table does not know it."""
    known = SWIFT_OF_XCODE.get(version) or SWIFT_OF_XCODE.get(f"{version}.0" if version.count(".") == 0 else "")
    if known is None and version.endswith(".0"):
        known = SWIFT_OF_XCODE.get(version[:-2])
    return ToolsVersion.parse(known) if known else None
