"""`scripts/tools-floor`: fails, naming what, when a toolchain of the version the manifest declares
could not resolve the package, or the Benchmarks manifest or the Apple workflow name another
version (Docs/Testing.md, "The tools floor"). Exit status: 0 agreed, 1 problems, 2 could not run."""
import argparse
import sys

from .check import FloorError, run


def main(argv=None):
    parser = argparse.ArgumentParser(prog="scripts/tools-floor", description=__doc__)
    parser.add_argument("--package-path", default=".", help="the package (default: the current directory)")
    parser.add_argument("--resolved", help="the Package.resolved to read (default: the package's)")
    parser.add_argument("--checkouts", help="where the pinned dependencies are checked out "
                                            "(default: the package's .build/checkouts)")
    parser.add_argument("--workflow", default=".github/workflows/apple.yml",
                        help="the Apple workflow, relative to the package")
    parser.add_argument("--verbose", action="store_true", help="also list what agrees")
    args = parser.parse_args(argv)
    try:
        result = run(args.package_path, args.resolved, args.checkouts, args.workflow)
    except FloorError as error:
        print(f"tools-floor: the check could not run: {error}", file=sys.stderr)
        return 2
    for problem in result.problems:
        print(f"tools-floor: error: {problem}")
    if args.verbose:
        for note in result.notes:
            print(f"tools-floor: {note}")
    if result.problems:
        print(f"tools-floor: {len(result.problems)} problems with swift-tools-version {result.floor}")
        return 1
    print(f"tools-floor: swift-tools-version {result.floor} resolves; Benchmarks and the Apple workflow agree",
          file=sys.stderr)
    return 0
