"""scripts/tools-floor on packages written in a temporary directory: a root manifest, a
Package.resolved and checkouts whose manifests declare various tools versions."""
import json
import os
import subprocess
import tempfile
import unittest

from toolsfloor.check import FloorError, run
from toolsfloor.manifests import TOOLS_VERSION_3, ToolsVersion, declared_tools_version, select_manifest
from toolsfloor.xcode import selected_xcodes, swift_of_xcode

SCRIPT = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", "..", "..", "tools-floor"))
TV = ToolsVersion.parse


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as handle:
        handle.write(text)


class FakePackage:
    """A package directory: Package.swift at `tools`, pins with checkouts, Benchmarks, a workflow."""

    def __init__(self, directory, tools="6.1", xcode="16.4", benchmarks="6.1"):
        self.root = directory
        write(os.path.join(directory, "Package.swift"), f"// swift-tools-version:{tools}\nimport PackageDescription\n")
        write(os.path.join(directory, "Benchmarks", "Package.swift"), f"// swift-tools-version:{benchmarks}\n")
        write(os.path.join(directory, ".github", "workflows", "apple.yml"),
              f"env:\n  DEVELOPER_DIR: /Applications/Xcode_{xcode}.app/Contents/Developer\n")
        self.pins = []

    def depend(self, name, manifests, version="1.0.0"):
        """A pinned dependency checked out with `manifests` ({file name: tools version line})."""
        for file, line in manifests.items():
            write(os.path.join(self.root, ".build", "checkouts", name, file), line + "\nimport PackageDescription\n")
        self.pins.append({"identity": name.lower(), "kind": "remoteSourceControl",
                          "location": f"https://github.com/example/{name}.git",
                          "state": {"revision": "0" * 40, "version": version}})
        write(os.path.join(self.root, "Package.resolved"), json.dumps({"pins": self.pins, "version": 3}))


class ManifestTests(unittest.TestCase):
    def test_tools_version_lines(self):
        self.assertEqual(declared_tools_version("// swift-tools-version:6.2\n"), TV("6.2"))
        self.assertEqual(declared_tools_version("// swift-tools-version: 6.1\n"), TV("6.1"))
        self.assertEqual(declared_tools_version("//swift-tools-version:5.9.2;(experimental)\n"), TV("5.9.2"))
        self.assertEqual(declared_tools_version("// Swift-Tools-Version:6.0\n"), TV("6.0"))
        self.assertEqual(declared_tools_version("import PackageDescription\n"), TOOLS_VERSION_3)

    def test_version_specific_manifests(self):
        with tempfile.TemporaryDirectory() as directory:
            write(os.path.join(directory, "Package.swift"), "// swift-tools-version:6.2\n")
            write(os.path.join(directory, "Package@swift-6.0.swift"), "// swift-tools-version:6.0\n")
            write(os.path.join(directory, "Package@swift-5.9.swift"), "// swift-tools-version:5.9\n")
            # A 6.1 toolchain: Package.swift needs 6.2, so the newest variant not newer than 6.1.
            path, version = select_manifest(directory, TV("6.1"))
            self.assertEqual((os.path.basename(path), version), ("Package@swift-6.0.swift", TV("6.0")))
            # A 6.2 toolchain reads Package.swift.
            path, version = select_manifest(directory, TV("6.2"))
            self.assertEqual((os.path.basename(path), version), ("Package.swift", TV("6.2")))
            # A variant named for the toolchain's own version wins outright.
            write(os.path.join(directory, "Package@swift-6.1.swift"), "// swift-tools-version:6.1\n")
            path, _ = select_manifest(directory, TV("6.1"))
            self.assertEqual(os.path.basename(path), "Package@swift-6.1.swift")

    def test_an_older_variant_does_not_replace_a_newer_regular_manifest(self):
        with tempfile.TemporaryDirectory() as directory:
            write(os.path.join(directory, "Package.swift"), "// swift-tools-version:5.7\n")
            write(os.path.join(directory, "Package@swift-5.5.swift"), "// swift-tools-version:5.5\n")
            path, version = select_manifest(directory, TV("6.1"))
            self.assertEqual((os.path.basename(path), version), ("Package.swift", TV("5.7")))


class XcodeTests(unittest.TestCase):
    def test_workflow_selections(self):
        text = ("# Xcode 16.3 or later\nenv:\n  DEVELOPER_DIR: /Applications/Xcode_16.4.app/Contents/Developer\n"
                "steps:\n  - uses: maxim-lobanov/setup-xcode@v1\n    with:\n      xcode-version: '26.0'\n")
        self.assertEqual(selected_xcodes(text), ["16.4", "26.0"])

    def test_swift_of_xcode(self):
        self.assertEqual(swift_of_xcode("16.4").language, TV("6.1"))
        self.assertEqual(swift_of_xcode("26.0").language, TV("6.2"))
        self.assertEqual(swift_of_xcode("16").language, TV("6.0"))
        self.assertIsNone(swift_of_xcode("99.1"))


class FloorTests(unittest.TestCase):
    def setUp(self):
        self.temp = tempfile.TemporaryDirectory(prefix="tools-floor-")

    def tearDown(self):
        self.temp.cleanup()

    def test_a_dependency_declaring_newer_tools_fails_naming_it(self):
        package = FakePackage(self.temp.name)
        package.depend("swift-log", {"Package.swift": "// swift-tools-version:6.2"}, version="1.16.2")
        package.depend("GRDB.swift", {"Package.swift": "// swift-tools-version:6.1"})
        result = run(package.root)
        self.assertEqual(len(result.problems), 1)
        self.assertIn("swift-log 1.16.2 (.build/checkouts/swift-log/Package.swift) declares swift-tools-version "
                      "6.2, newer than this package's 6.1", result.problems[0])

    def test_a_version_specific_manifest_for_the_floor_passes(self):
        package = FakePackage(self.temp.name)
        package.depend("swift-log", {"Package.swift": "// swift-tools-version:6.2",
                                     "Package@swift-6.1.swift": "// swift-tools-version:6.1"})
        result = run(package.root)
        self.assertEqual(result.problems, [])
        self.assertIn("swift-log 1.0.0: .build/checkouts/swift-log/Package@swift-6.1.swift declares 6.1",
                      result.notes)

    def test_raising_the_floor_passes_when_everything_agrees(self):
        package = FakePackage(self.temp.name, tools="6.2", xcode="26.0", benchmarks="6.2")
        package.depend("swift-log", {"Package.swift": "// swift-tools-version:6.2"})
        self.assertEqual(run(package.root).problems, [])

    def test_benchmarks_and_workflow_must_name_the_floor(self):
        package = FakePackage(self.temp.name, tools="6.2", xcode="16.4", benchmarks="6.1")
        package.depend("swift-log", {"Package.swift": "// swift-tools-version:6.2"})
        problems = run(package.root).problems
        self.assertEqual(len(problems), 2)
        self.assertIn("Benchmarks/Package.swift declares swift-tools-version 6.1, the package 6.2", problems[0])
        self.assertIn("selects Xcode 16.4 (Swift 6.1.2), the package declares swift-tools-version 6.2", problems[1])

    def test_an_unknown_xcode_is_a_problem(self):
        package = FakePackage(self.temp.name, xcode="99.0")
        package.depend("swift-log", {"Package.swift": "// swift-tools-version:6.0"})
        self.assertIn("Xcode 99.0, which the table of Xcode releases", run(package.root).problems[0])

    def test_a_missing_checkout_cannot_be_checked(self):
        package = FakePackage(self.temp.name)
        package.depend("swift-log", {"Package.swift": "// swift-tools-version:6.0"})
        package.pins.append({"identity": "gone", "location": "https://github.com/example/gone", "state": {}})
        write(os.path.join(package.root, "Package.resolved"), json.dumps({"pins": package.pins, "version": 3}))
        with self.assertRaises(FloorError):
            run(package.root)

    def test_command_line_status(self):
        package = FakePackage(self.temp.name)
        package.depend("swift-log", {"Package.swift": "// swift-tools-version:6.2"}, version="1.16.2")
        completed = subprocess.run([SCRIPT, "--package-path", package.root], capture_output=True, text=True)
        self.assertEqual(completed.returncode, 1)
        self.assertIn("tools-floor: error: swift-log 1.16.2", completed.stdout)
        os.remove(os.path.join(package.root, "Package.resolved"))
        completed = subprocess.run([SCRIPT, "--package-path", package.root], capture_output=True, text=True)
        self.assertEqual(completed.returncode, 2)
        self.assertIn("no ", completed.stderr)


if __name__ == "__main__":
    unittest.main()
