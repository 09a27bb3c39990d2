"""The check against the compiler's own verdict.

The Linux compiler judges Apple availability when it compiles for an Apple target; it cannot
do that for the package (there is no Apple SDK here), but it can for sources that need no
standard library (`-parse-stdlib`). Fixtures/availability/Oracle holds such sources, with
declarations of their own in every availability shape and uses of them in every kind of
context. For each Apple platform, the compiler's errors at the package's floor ("is only
available in", "is unavailable in") must be exactly the check's findings on the Linux index
of the same files. visionOS gets an SDK settings file holding the iOS→visionOS version map
(`platforms.IOS_TO_VISIONOS`, as the visionOS SDK ships it), which the compiler applies.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

from availability.check import CheckedFile, run
from availability.indexing import frontend, index_module
from availability.platforms import PLATFORMS, IOS_TO_VISIONOS
from availability.symbolgraphs import ToolchainSymbols

from .support import LINUX_ONLY, APPLE_TARGETS, FIXTURES, FLOORS, LINUX, PARSE_STDLIB, SWIFT

_ERROR = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<column>\d+): error: (?P<message>.*)$")
_AVAILABILITY = re.compile(r"is only available in|is unavailable in|cannot be used in")


def _visionos_sdk(directory):
    """An SDK directory whose SDKSettings.json holds only the iOS→visionOS version map."""
    as_text = {f"{k[0]}.{k[1]}": f"{v[0]}.{v[1]}" for k, v in IOS_TO_VISIONOS.items()}
    settings = {"DisplayName": "visionOS (fixture)", "Version": "26.0", "CanonicalName": "xros26.0",
                "MaximumDeploymentTarget": "26.0.99",
                "VersionMap": {"iOS_xrOS": as_text, "xrOS_iOS": {v: k for k, v in as_text.items()}}}
    with open(os.path.join(directory, "SDKSettings.json"), "w") as handle:
        json.dump(settings, handle)
    return directory


def compiler_verdict(sources, platform, sdk):
    """{(file, line, column)} the compiler rejects for availability on `platform` at the floor."""
    command = [frontend(SWIFT), "-frontend", "-typecheck", "-target", APPLE_TARGETS[platform],
               "-module-name", "Oracle", "-parse-as-library", "-diagnostic-style", "llvm", *PARSE_STDLIB]
    if platform == "visionOS":
        command += ["-sdk", sdk]
    completed = subprocess.run(command + sources, capture_output=True, text=True)
    rejected, other = set(), []
    for line in completed.stderr.splitlines():
        match = _ERROR.match(line)
        if not match:
            continue
        if _AVAILABILITY.search(match["message"]):
            rejected.add((os.path.basename(match["file"]), int(match["line"]), int(match["column"])))
        else:
            other.append(line)
    return rejected, other


@unittest.skipUnless(sys.platform.startswith("linux"), LINUX_ONLY)
class OracleTests(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.temp = tempfile.TemporaryDirectory(prefix="availability-oracle-")
        directory = os.path.join(FIXTURES, "Oracle")
        cls.sources = sorted(os.path.join(directory, f) for f in os.listdir(directory) if f.endswith(".swift"))
        cls.store = os.path.join(cls.temp.name, "index")
        index_module(SWIFT, cls.sources, "Oracle", cls.store, LINUX, PARSE_STDLIB)
        files = [CheckedFile(s, os.path.basename(s), tuple(FLOORS.items())) for s in cls.sources]
        cls.report = run([cls.store], files, ToolchainSymbols({}, {}, {}), SWIFT)
        cls.sdk = _visionos_sdk(tempfile.mkdtemp(dir=cls.temp.name))

    @classmethod
    def tearDownClass(cls):
        cls.temp.cleanup()

    def check_platform(self, platform):
        expected, other = compiler_verdict(self.sources, platform, self.sdk)
        self.assertEqual(other, [], f"the oracle fixtures must compile for {platform} but for availability")
        found = {(f.file.display, f.line, f.column) for f in self.report.findings if platform in f.needs}
        self.assertGreater(len(expected), 3, "the fixtures exercise nothing on this platform")
        self.assertEqual(sorted(found - expected), [], f"{platform}: reported, but the compiler accepts them")
        self.assertEqual(sorted(expected - found), [], f"{platform}: rejected by the compiler, not reported")

    def test_macOS(self):
        self.check_platform("macOS")

    def test_iOS(self):
        self.check_platform("iOS")

    def test_tvOS(self):
        self.check_platform("tvOS")

    def test_watchOS(self):
        self.check_platform("watchOS")

    def test_visionOS(self):
        self.check_platform("visionOS")

    def test_covers_every_platform(self):
        self.assertEqual(set(APPLE_TARGETS), set(PLATFORMS))


if __name__ == "__main__":
    unittest.main()
