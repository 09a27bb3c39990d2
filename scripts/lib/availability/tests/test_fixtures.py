"""The check on real toolchain APIs: Fixtures/availability/Uses, with Library/ as a module of its own.

Every `// expect: NAME needs VERSIONS` comment is a finding the check must report on the next
code line, with exactly those versions; any other finding fails the test.
"""
import os
import re
import subprocess
import sys
import tempfile
import unittest

from availability.check import CheckedFile, run
from availability.indexing import index_module
from availability.platforms import parse_floors
from availability.symbolgraphs import ToolchainSymbols

from .support import LINUX_ONLY, FIXTURES, FLOORS, LINUX, ROOT, SWIFT

LIBRARY = "AvailabilityFixtureLibrary"
_EXPECT = re.compile(r"^\s*// expect: (?P<name>\S+) needs (?P<versions>.+?)\s*$")


def expectations(path):
    """{(line, name, versions text)} from the `// expect:` comments of a fixture."""
    found, pending = set(), []
    with open(path) as handle:
        for number, line in enumerate(handle, start=1):
            match = _EXPECT.match(line)
            if match:
                pending.append((match["name"], match["versions"]))
            elif line.strip() and not line.strip().startswith("//"):
                found |= {(number, name, versions) for name, versions in pending}
                pending = []
    return found


def versions_text(needs):
    floors = parse_floors(",".join(f"{p}={v}" for p, v in needs.items()))
    return ", ".join(f"{p} {v}" for p, v in floors.items())


def compile_fixtures(directory):
    """Indexes Library/ and Uses/ into `directory`/index; returns (store, use files, module path)."""
    store = os.path.join(directory, "index")
    modules = os.path.join(directory, "modules")
    os.makedirs(modules)
    library = sorted(os.path.join(FIXTURES, "Library", f) for f in os.listdir(os.path.join(FIXTURES, "Library")))
    subprocess.run(["swiftc", "-emit-module", "-module-name", LIBRARY, "-parse-as-library", "-swift-version", "6",
                    "-emit-module-path", os.path.join(modules, LIBRARY + ".swiftmodule"), *library],
                   check=True, capture_output=True)
    index_module(SWIFT, library, LIBRARY, store, LINUX, ["-swift-version", "6"])
    uses_dir = os.path.join(FIXTURES, "Uses")
    uses = sorted(os.path.join(uses_dir, f) for f in os.listdir(uses_dir) if f.endswith(".swift"))
    index_module(SWIFT, uses, "AvailabilityFixtureUses", store, LINUX, ["-swift-version", "6", "-I", modules])
    return store, uses


@unittest.skipUnless(sys.platform.startswith("linux"), LINUX_ONLY)
class FixtureTests(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.temp = tempfile.TemporaryDirectory(prefix="availability-fixtures-")
        cls.store, cls.uses = compile_fixtures(cls.temp.name)
        cls.symbols = ToolchainSymbols.load(SWIFT, os.path.join(ROOT, ".build", "availability"))
        files = [CheckedFile(u, os.path.basename(u), tuple(FLOORS.items())) for u in cls.uses]
        cls.report = run([cls.store], files, cls.symbols, SWIFT)

    @classmethod
    def tearDownClass(cls):
        cls.temp.cleanup()

    def findings_of(self, path):
        return {(f.line, f.name, versions_text(f.needs))
                for f in self.report.findings if f.file.path == path}

    def check_file(self, name):
        path = os.path.join(FIXTURES, "Uses", name)
        expected, found = expectations(path), self.findings_of(path)
        self.assertEqual(sorted(found - expected), [], f"{name}: reported but not expected")
        self.assertEqual(sorted(expected - found), [], f"{name}: expected but not reported")
        return expected

    def test_string_validating_unguarded_and_partly_guarded(self):
        self.assertEqual(len(self.check_file("StringValidating.swift")), 3)

    def test_string_validating_fixed_forms(self):
        self.assertEqual(self.check_file("StringValidatingFixed.swift"), set())

    def test_task_executor_conformance(self):
        self.assertEqual(len(self.check_file("TaskExecutorConformance.swift")), 3)

    def test_task_executor_preference(self):
        self.assertEqual(len(self.check_file("TaskExecutorPreference.swift")), 2)

    def test_observation_tracking(self):
        self.assertEqual(len(self.check_file("ObservationTracking.swift")), 1)

    def test_type_of_another_module(self):
        self.assertEqual(len(self.check_file("LibraryType.swift")), 2)

    def test_type_of_the_same_module(self):
        self.assertEqual(len(self.check_file("ModuleType.swift")), 1)

    def test_for_await_is_no_use_of_next_isolation(self):
        self.assertEqual(len(self.check_file("ForAwait.swift")), 1)

    def test_code_only_some_platforms_compile(self):
        self.assertEqual(len(self.check_file("Conditional.swift")), 1)

    def test_every_fixture_is_tested(self):
        tested = {"StringValidating.swift", "StringValidatingFixed.swift", "TaskExecutorConformance.swift",
                  "TaskExecutorPreference.swift", "ObservationTracking.swift", "LibraryType.swift",
                  "ModuleType.swift", "ForAwait.swift", "Conditional.swift"}
        self.assertEqual({os.path.basename(u) for u in self.uses}, tested)

    def test_command_line_output_and_status(self):
        script = os.path.join(ROOT, "scripts", "availability")
        floors = ",".join(f"{p}={v}" for p, v in FLOORS.items())
        failing = os.path.join(FIXTURES, "Uses", "StringValidating.swift")
        completed = subprocess.run([script, "--index-store", self.store, "--floors", floors, failing],
                                   capture_output=True, text=True, cwd=ROOT)
        self.assertEqual(completed.returncode, 1, completed.stderr)
        self.assertIn(f"{failing}:5:5: error: String.init(validating:as:) (Swift, init) needs macOS 15, iOS 18, "
                      "tvOS 18, watchOS 11, visionOS 2; the floor is macOS 13, iOS 16, tvOS 16, watchOS 9, "
                      "visionOS 1", completed.stdout)
        self.assertIn("availability: 3 uses of 1 declarations", completed.stdout)
        fixed = os.path.join(FIXTURES, "Uses", "StringValidatingFixed.swift")
        completed = subprocess.run([script, "--index-store", self.store, "--floors", floors, fixed],
                                   capture_output=True, text=True, cwd=ROOT)
        self.assertEqual(completed.returncode, 0, completed.stdout + completed.stderr)


if __name__ == "__main__":
    unittest.main()
