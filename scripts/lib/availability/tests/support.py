"""What the availability tests share: the repository, the toolchain, the package's floors."""
import os
import shutil

from availability.platforms import Version

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
FIXTURES = os.path.join(ROOT, "Fixtures", "availability")
SWIFT = shutil.which("swift")
LINUX = "x86_64-unknown-linux-gnu"

# The package's floors (Package.swift), which the fixtures are written against.
FLOORS = {"macOS": Version.parse("13"), "iOS": Version.parse("16"), "tvOS": Version.parse("16"),
          "watchOS": Version.parse("9"), "visionOS": Version.parse("1")}

# The Apple target each platform's floor stands for, for the compiler's own verdict.
APPLE_TARGETS = {"macOS": "arm64-apple-macos13", "iOS": "arm64-apple-ios16", "tvOS": "arm64-apple-tvos16",
                 "watchOS": "arm64-apple-watchos9", "visionOS": "arm64-apple-xros1.0"}

# Compiling without a standard library: the same file type-checks for Linux and Apple targets.
PARSE_STDLIB = ["-parse-stdlib", "-disable-implicit-concurrency-module-import",
                "-disable-implicit-string-processing-module-import"]

# The check reads Linux builds; on a Mac, the compiler checks availability itself (cli.py).
LINUX_ONLY = "the availability check runs on Linux; a Mac's compiler checks availability itself"
