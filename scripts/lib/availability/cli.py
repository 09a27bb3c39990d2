"""`scripts/availability`: checks that the package compiles for the Apple platforms it declares,
as far as the availability of what it uses goes (Docs/Testing.md, "Apple availability").

Package mode (no file arguments) checks every target of the package (sources, tests,
examples) against the index store of the last `swift build --build-tests`, and the
Benchmarks package's sources, which it type-checks into an index of its own against the
main build's modules (no second build of the library). File mode checks the given files
against a given index store and floors (the fixture tests use it).

Exit status: 0 no finding, 1 findings, 2 the check could not run.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from .check import CheckError, CheckedFile, run
from .indexing import IndexingError, index_module
from .indexstore import IndexStoreError
from .platforms import floors_from_dump_package, parse_floors
from .report import finding_line, summary_lines
from .symbolgraphs import ToolchainSymbols

# Benchmarks is a macOS and Linux program (`scripts/bench`); its manifest lists macOS only. For the
# other platforms SwiftPM would take its defaults (iOS 12, tvOS 12, watchOS 4, visionOS 1), under
# the library's own floors, so the package cannot even be built for them: only macOS is checked.
BENCHMARK_PLATFORMS = ("macOS",)


def _swift():
    swift = shutil.which("swift")
    if not swift:
        raise CheckError("swift is not on PATH")
    return swift


def _json(command, cwd):
    completed = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if completed.returncode != 0:
        raise CheckError(f"`{' '.join(command)}` failed in {cwd}:\n{completed.stderr.strip()[-2000:]}")
    return json.loads(completed.stdout)


def _triple(swift):
    info = _json([os.path.join(os.path.dirname(os.path.realpath(swift)), "swiftc"), "-print-target-info"], ".")
    return info["target"]["unversionedTriple"]


def _package_files(root, floors):
    description = _json(["swift", "package", "describe", "--type", "json"], root)
    files = []
    for target in description["targets"]:
        for source in target.get("sources", []):
            if source.endswith(".swift"):
                path = os.path.join(root, target["path"], source)
                files.append(CheckedFile(path, os.path.relpath(path, root), tuple(floors.items())))
    return files


def _c99(name):
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


def index_benchmarks(root, bin_path, swift, store):
    """Type-checks Benchmarks/ into the index store `store`, against the main build's modules
    (`indexing.index_module`), with the flags SwiftPM gives a debug build."""
    bench = os.path.join(root, "Benchmarks")
    manifest = _json(["swift", "package", "dump-package"], bench)
    floors = floors_from_dump_package(manifest, only=BENCHMARK_PLATFORMS)
    try:
        with open(os.path.join(root, ".build", "debug.yaml")) as handle:
            module_maps = sorted(set(re.findall(r'-fmodule-map-file=([^"\s]+)', handle.read())))
    except FileNotFoundError:
        raise CheckError("no .build/debug.yaml: build first (`swift build --build-tests`)") from None
    files = []
    for target in manifest["targets"]:
        if target.get("type") not in ("executable", "regular"):
            continue
        local = [d for d in target.get("dependencies", []) if "byName" in d or "target" in d]
        if local:
            raise CheckError(f"Benchmarks target {target['name']} depends on a target of its own package; "
                             "the availability check indexes each Benchmarks target alone")
        directory = os.path.join(bench, target.get("path") or os.path.join("Sources", target["name"]))
        sources = sorted(glob.glob(os.path.join(directory, "**", "*.swift"), recursive=True))
        if not sources:
            continue
        extra = ["-swift-version", "6", "-I", os.path.join(bin_path, "Modules"),
                 "-D", "SWIFT_PACKAGE", "-D", "DEBUG",
                 "-module-cache-path", os.path.join(bin_path, "ModuleCache")]
        for module_map in module_maps:
            extra += ["-Xcc", f"-fmodule-map-file={module_map}"]
        try:
            index_module(swift, sources, _c99(target["name"]), store, _triple(swift), extra)
        except IndexingError as error:
            raise CheckError(f"type-checking Benchmarks/{os.path.relpath(directory, bench)} failed:\n{error}")
        files += [CheckedFile(s, os.path.relpath(s, root), tuple(floors.items())) for s in sources]
    return files, floors


def package_mode(args, log):
    root = os.path.realpath(args.package_path)
    swift = _swift()
    started = time.monotonic()
    manifest = _json(["swift", "package", "dump-package"], root)
    floors = floors_from_dump_package(manifest)
    bin_path = os.path.join(root, ".build", _triple(swift), "debug")
    store = os.path.join(bin_path, "index", "store")
    files = _package_files(root, floors)
    symbols = ToolchainSymbols.load(swift, args.cache_dir or os.path.join(root, ".build", "availability"), log=log)
    floors_by_label = {"the package": floors}
    with tempfile.TemporaryDirectory(prefix="availability-bench-") as bench_store:
        stores = [store]
        if args.benchmarks and os.path.exists(os.path.join(root, "Benchmarks", "Package.swift")):
            bench_files, bench_floors = index_benchmarks(root, bin_path, swift, bench_store)
            files += bench_files
            stores.append(bench_store)
            floors_by_label["Benchmarks"] = bench_floors
        report = run(stores, files, symbols, swift)
    return report, floors_by_label, time.monotonic() - started


def files_mode(args, log):
    swift = _swift()
    started = time.monotonic()
    floors = parse_floors(args.floors)
    files = [CheckedFile(os.path.realpath(f), f, tuple(floors.items())) for f in args.files]
    cache = args.cache_dir or os.path.join(os.getcwd(), ".build", "availability")
    symbols = ToolchainSymbols.load(swift, cache, log=log)
    report = run([args.index_store], files, symbols, swift)
    return report, {"given": floors}, time.monotonic() - started


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="scripts/availability",
        description="Reports every use of a declaration newer than the Apple platform floors allow "
                    "where it is used (Docs/Testing.md).")
    parser.add_argument("--package-path", default=".", help="the package (default: the current directory)")
    parser.add_argument("--no-benchmarks", dest="benchmarks", action="store_false",
                        help="leave out the Benchmarks package")
    parser.add_argument("--verbose", action="store_true",
                        help="also list the clauses not checked, the declarations without known availability "
                             "and the toolchain declarations used that carry no Apple availability")
    parser.add_argument("--index-store", help="file mode: the index store the files were compiled into")
    parser.add_argument("--floors", help="file mode: e.g. macOS=13,iOS=16,tvOS=16,watchOS=9,visionOS=1")
    parser.add_argument("--cache-dir", help="where the toolchain's availability table is kept "
                                            "(default: .build/availability of the package or the current directory)")
    parser.add_argument("files", nargs="*", help="file mode: the files to check")
    args = parser.parse_args(argv)

    def log(message):
        print(message, file=sys.stderr)

    if not sys.platform.startswith("linux"):
        # The check reads a Linux build (libIndexStore.so, the toolchain's linux modules). Where
        # the build is for an Apple platform, its compiler has just checked availability itself.
        print("availability: not run: this build's compiler checks Apple availability itself", file=sys.stderr)
        return 0
    try:
        if args.files:
            if not args.index_store or not args.floors:
                parser.error("file mode needs --index-store and --floors")
            report, floors_by_label, seconds = files_mode(args, log)
        else:
            report, floors_by_label, seconds = package_mode(args, log)
    except (CheckError, IndexStoreError) as error:
        print(f"availability: the check could not run: {error}", file=sys.stderr)
        return 2
    for finding in report.findings:
        print(finding_line(finding))
    for line in summary_lines(report, floors_by_label, seconds, args.verbose):
        print(line, file=sys.stderr if not report.findings else sys.stdout)
    return 1 if report.findings else 0
