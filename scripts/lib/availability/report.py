"""How the check prints its findings and its summary."""
from .platforms import PLATFORMS, describe_versions


def finding_line(finding) -> str:
    """`file:line:col: error: Name (Module) needs macOS 15, iOS 18; here macOS 13, iOS 16 (the floor)`."""
    newer = {p: v for p, v in finding.needs.items() if v != "unavailable"}
    gone = [p for p in PLATFORMS if finding.needs.get(p) == "unavailable"]
    parts = []
    if newer:
        parts.append(f"needs {describe_versions(newer)}")
    if gone:
        parts.append(f"is unavailable on {', '.join(gone)}")
    floors = dict(finding.file.floors)
    here = {p: finding.here[p] for p in PLATFORMS if p in finding.here}
    if all(here[p] == floors[p] for p in here):
        where = f"the floor is {describe_versions(here)}"
    else:
        where = (f"available here: {describe_versions(here)} "
                 f"(floor {describe_versions({p: floors[p] for p in here})})")
    clause = f" [in {finding.condition}]" if finding.condition else ""
    return (f"{finding.file.display}:{finding.line}:{finding.column}: error: "
            f"{finding.name} ({finding.module}, {finding.kind}) {' and '.join(parts)}; {where}{clause}")


def summary_lines(report, floors_by_label: dict, seconds: float, verbose=False) -> list:
    declarations = {f.usr for f in report.findings}
    files = {f.file.display for f in report.findings}
    lines = []
    floors = "; ".join(f"{label}: {describe_versions(dict(f))}" for label, f in floors_by_label.items())
    if report.findings:
        lines.append(f"availability: {len(report.findings)} uses of {len(declarations)} declarations newer "
                     f"than the code around them allows, in {len(files)} files")
    else:
        lines.append("availability: every declaration used is available where it is used")
    lines.append(f"availability: checked {report.references} references in {report.files} files "
                 f"against {floors} ({seconds:.1f} s)")
    if report.skipped_clauses:
        lines.append(f"availability: not checked: {len(report.skipped_clauses)} `#if` clauses that Linux "
                     f"does not compile but an Apple platform may (run with --verbose to list them)")
        if verbose:
            for display, line, condition in report.skipped_clauses:
                lines.append(f"  {display}:{line}: {condition}")
    if report.unresolved:
        lines.append(f"availability: {len(report.unresolved)} used declarations have no known availability: "
                     "C declarations (Glibc, SQLite), members of underscored standard-library protocols and "
                     "members the compiler synthesizes (`allCases`), which symbol graphs leave out"
                     + ("" if verbose else " (--verbose lists them)"))
        if verbose:
            for usr, name in sorted(report.unresolved.items(), key=lambda item: item[1]):
                lines.append(f"  {name}  {usr}")
    if verbose and report.toolchain_without_apple:
        lines.append("availability: toolchain declarations used that carry no Apple availability on Linux:")
        for module in sorted(report.toolchain_without_apple):
            names = sorted(report.toolchain_without_apple[module])
            lines.append(f"  {module} ({len(names)}): {', '.join(names)}")
    return lines
