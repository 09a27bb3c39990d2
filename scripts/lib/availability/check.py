"""The availability check: every declaration a file uses, as the compiler resolved it (the
index), against the availability the code at that place may assume on each Apple platform.

For a use at some place and a platform P:
- skipped when P does not compile the place (an `#if` clause P certainly does not take);
- skipped when the place is in a declaration unavailable on P;
- reported when the declaration is unavailable on P, or introduced on P later than what the
  place may assume: the floor, raised by the `@available` of the enclosing declarations and
  by enclosing `if #available` / earlier `guard #available` queries.

A declaration's availability comes from the toolchain's symbol graphs (`symbolgraphs.py`) or,
for declarations compiled from source (this package, GRDB and the other dependencies), from
its `@available` and those of the declarations around its definition in the index.
"""
import os
import re
import tempfile
from dataclasses import dataclass, field

from . import conditions
from .indexstore import (IndexStore, KIND_NAMES, ROLE_DECLARATION, ROLE_DEFINITION, ROLE_IMPLICIT,
                         ROLE_REFERENCE, ROLE_REL_BASEOF, ROLE_REL_CHILDOF, ROLE_REL_OVERRIDEOF)
from .parsing import ParseError, parse_files
from .platforms import PLATFORMS

# `for await x in s` calls `next(isolation:)` (macOS 15, iOS 18 …) where that is available and
# `next()` elsewhere (SE-0421; the compiler's test/Concurrency/async_for_each_back_deploy.swift):
# the index records the implicit `next(isolation:)` whatever the platform, so an implicit
# reference to it is never a use the floor must allow. An explicit call is checked.
_AVAILABILITY_CHOSEN_IMPLICITLY = {"next(isolation:)"}

KIND_MODULE = 1
# "We allow nominal types to conform to protocols that are less available than the types
# themselves" (the compiler's test/Sema/availability_versions.swift; measured too: `struct A:
# NewProtocol {}` and `extension B: NewProtocol {}` compile for macOS 13 when NewProtocol is
# macOS 15). So a protocol named in an inheritance clause is no use to check; the conformance's
# members, which mention the newer types, are. A superclass is checked.
KIND_PROTOCOL = 8

# An accessor's USR is its property's or subscript's with the accessor's letter for the final `p`
# (`…Sivg` getter, `…Sivs` setter, `…cig` subscript getter); symbol graphs list the property.
_ACCESSOR = re.compile(r"(v|ci)[gsMrxyWwal]$")


def declaration_usr(usr: str) -> str:
    """The USR the availability is declared on: an accessor's property, else the USR itself."""
    return usr[:-1] + "p" if _ACCESSOR.search(usr) and not usr.startswith("c:") else usr


class CheckError(Exception):
    """The check could not run (no index, stale index, unreadable parse tree …)."""


@dataclass(frozen=True)
class CheckedFile:
    path: str          # absolute
    display: str       # as printed (relative to the package)
    floors: tuple      # ((platform, Version), …) the file is checked against


@dataclass
class Definition:
    file: str
    line: int
    column: int
    name: str
    kind: int
    module: str
    parent: str = ""
    implicit: bool = False


@dataclass
class Finding:
    file: CheckedFile
    line: int
    column: int
    usr: str
    name: str
    module: str
    kind: str
    needs: dict                 # platform → Version, or "unavailable"
    here: dict                  # platform → the version the place may assume
    condition: str = ""         # the innermost `#if` clause around the use, if any


@dataclass
class Report:
    findings: list = field(default_factory=list)
    files: int = 0
    references: int = 0
    toolchain_without_apple: dict = field(default_factory=dict)   # module → {name}
    unresolved: dict = field(default_factory=dict)                # usr → name
    skipped_clauses: list = field(default_factory=list)           # (display, line, condition)


def _newest_units(stores):
    """main file → (store, unit), the newest unit of each file over all stores."""
    newest = {}
    for store in stores:
        for name in store.unit_names():
            unit = store.unit(name)
            if not unit.main_file or not unit.record or not os.path.exists(unit.main_file):
                continue
            key = os.path.realpath(unit.main_file)
            if key not in newest or unit.modified > newest[key][1].modified:
                newest[key] = (store, unit)
    return newest


def run(index_stores, files, symbols, swift="swift") -> Report:
    """Checks `files` (CheckedFile) against the index stores (paths) and the toolchain table."""
    stores = [IndexStore(path) for path in index_stores]
    try:
        return _run(stores, files, symbols, swift)
    finally:
        for store in stores:
            store.close()


def _run(stores, files, symbols, swift):
    units = _newest_units(stores)
    missing = [f.display for f in files if os.path.realpath(f.path) not in units]
    if missing:
        raise CheckError("not in the index (build first: `swift build --build-tests`): "
                         + ", ".join(missing[:10]) + (" …" if len(missing) > 10 else ""))
    stale = [f.display for f in files
             if os.path.getmtime(f.path) > units[os.path.realpath(f.path)][1].modified + 1]
    if stale:
        raise CheckError("changed since the index was written (build again): "
                         + ", ".join(stale[:10]) + (" …" if len(stale) > 10 else ""))
    checked = {os.path.realpath(f.path): f for f in files}
    definitions, references, default_implementations = _read_index(units, checked)
    needed = {usr for found in references.values() for usr, _ in found if usr not in symbols}
    needed |= {alt for usr in needed for alt in default_implementations.get(usr, ())}
    # Only Swift sources carry `@available` the way the parse tree reads it; a declaration of
    # the package's own C target (the fuzz driver's shim) is one of the C declarations.
    definition_files = {definitions[u].file for u in needed if u in definitions and definitions[u].file.endswith(".swift")}
    with tempfile.TemporaryDirectory(prefix="availability-") as work_dir:
        try:
            parsed = parse_files(set(checked) | definition_files, swift, work_dir)
        except ParseError as error:
            raise CheckError(str(error)) from None
    return _evaluate(checked, references, definitions, default_implementations, parsed, symbols, len(files))


def _read_index(units, checked):
    """(definitions by USR, [(USR, occurrence)] of references by checked file, default
    implementations by requirement USR), from every unit of the stores."""
    definitions, references, default_implementations = {}, {}, {}
    for main_file, (store, unit) in units.items():
        for occ in store.occurrences(unit.record):
            if occ.roles & (ROLE_DEFINITION | ROLE_DECLARATION):
                known = definitions.get(occ.usr)
                implicit = bool(occ.roles & ROLE_IMPLICIT)
                if known is None or (known.implicit and not implicit):
                    parent = next((usr for roles, usr in occ.related if roles & ROLE_REL_CHILDOF), "")
                    definitions[occ.usr] = Definition(main_file, occ.line, occ.column, occ.name,
                                                      occ.kind, unit.module, parent, implicit)
            elif occ.roles & ROLE_REFERENCE and main_file in checked and occ.kind != KIND_MODULE:
                if occ.roles & ROLE_IMPLICIT and occ.name in _AVAILABILITY_CHOSEN_IMPLICITLY:
                    continue
                if occ.kind == KIND_PROTOCOL and any(r & ROLE_REL_BASEOF for r, _ in occ.related):
                    continue  # a conformance: the compiler allows one to a newer protocol (see above)
                # One per place and declaration: a property's getter is its property's use.
                references.setdefault(main_file, {})[(occ.line, occ.column, declaration_usr(occ.usr))] = occ
            if occ.roles & ROLE_DEFINITION:
                # A protocol extension's member that implements a requirement: where the requirement
                # is not available, the compiler calls this one instead (see _declaration).
                for roles, target in occ.related:
                    if roles & ROLE_REL_OVERRIDEOF and any(
                            r & ROLE_REL_CHILDOF and u.startswith("s:e:") for r, u in occ.related):
                        default_implementations.setdefault(target, set()).add(occ.usr)
    references = {path: [(usr, occ) for (_l, _c, usr), occ in found.items()]
                  for path, found in references.items()}
    # Only members of the requirement's own protocol's extensions are defaults: a conforming
    # type's witness, in an extension of that type, is no alternative the compiler would take.
    default_implementations = {
        requirement: {alt for alt in alts
                      if requirement in definitions and definitions[requirement].parent
                      and alt.startswith(definitions[requirement].parent)}
        for requirement, alts in default_implementations.items()}
    return definitions, references, default_implementations


def _evaluate(checked, references, definitions, default_implementations, parsed, symbols, file_count):
    regions = {path: conditions.regions(source.directives) for path, (source, _) in parsed.items()}
    report = Report(files=file_count)
    disagreements, declared_cache = [], {}
    for main_file, occurrences in sorted(references.items()):
        file = checked[main_file]
        source, scopes = parsed[main_file]
        floors = dict(file.floors)
        for usr, occ in occurrences:
            report.references += 1
            offset = source.offset(occ.line, occ.column)
            if conditions.activity_at(regions[main_file], offset, conditions.LINUX) is False:
                disagreements.append(f"{file.display}:{occ.line}:{occ.column}")
            compiled = [p for p in floors
                        if conditions.activity_at(regions[main_file], offset, p) is not False]
            if not compiled:
                continue  # code no checked platform compiles (`#if os(Linux)` …)
            if usr not in declared_cache:
                declared_cache[usr] = _declaration(usr, symbols, definitions, parsed, report, occ,
                                                   default_implementations)
            declared = declared_cache[usr]
            if declared is None:
                continue
            module, name, kind, availability = declared
            needs, here = {}, {}
            for platform in compiled:
                introduced, unavailable = availability.get(platform, (None, False))
                if not introduced and not unavailable:
                    continue
                applies = _query_applies(regions[main_file], offset, platform)
                context = scopes.context(offset, platform, floors[platform], applies)
                if context is None:
                    continue  # the code here is itself unavailable on this platform
                if unavailable:
                    needs[platform], here[platform] = "unavailable", context
                elif introduced > context:
                    needs[platform], here[platform] = introduced, context
            if needs:
                clause = _innermost_clause(regions[main_file], offset)
                report.findings.append(Finding(file, occ.line, occ.column, usr, name, module, kind,
                                               needs, here, clause))
    if disagreements:
        raise CheckError("the `#if` evaluation says Linux does not compile code the Linux index holds "
                         "(conditions.py needs a fix): " + ", ".join(disagreements[:10]))
    for main_file, found in regions.items():
        if main_file not in checked:
            continue
        for region in found:
            if region.activity(conditions.LINUX) is False and any(
                    region.activity(p) is not False for p in dict(checked[main_file].floors)):
                report.skipped_clauses.append((checked[main_file].display, region.line, region.condition))
    report.findings.sort(key=lambda f: (f.file.display, f.line, f.column, f.name))
    return report


def _query_applies(found_regions, offset, platform):
    """A `guard #available` inside an `#if` clause the use is not in counts only where the
    platform certainly compiles that clause."""
    def applies(scope):
        for region in found_regions:
            around_query = region.start <= scope.anchor < region.end
            around_use = region.start <= offset < region.end
            if around_query and not around_use and region.activity(platform) is not True:
                return False
        return True
    return applies


def _innermost_clause(found_regions, offset):
    around = [r for r in found_regions if r.start <= offset < r.end]
    return max(around, key=lambda r: r.start).condition if around else ""


def _declaration(usr, symbols, definitions, parsed, report, occ, default_implementations):
    """(module, readable name, kind, {platform: (introduced, unavailable)}) of a used
    declaration, or None when it constrains no Apple platform or is unknown.

    A protocol requirement newer than a default implementation of it (Swift 6's
    `FixedWidthInteger.&*` requirement is macOS 15, its protocol-extension default is not):
    the index names the requirement, but where the requirement is not available the compiler
    resolves the call to the default implementation instead (measured with the compiler's
    Apple targets, Fixtures/availability/Oracle), so the use needs only the most available of them.
    """
    own = _own_availability(usr, symbols, definitions, parsed, report, occ)
    if own is None:
        return None
    module, name, kind, availability = own
    alternatives = set(default_implementations.get(usr, ())) | set(symbols.default_implementations(usr))
    for alternative in alternatives:
        found = _own_availability(alternative, symbols, definitions, parsed, None, occ)
        other = found[3] if found else {}
        availability = {p: _more_available(v, other.get(p, (None, False)))
                        for p, v in availability.items()}
        availability = {p: v for p, v in availability.items() if v[0] or v[1]}
    return (module, name, kind, availability) if availability else None


def _more_available(a, b):
    """Of two (introduced, unavailable), the one usable in more places."""
    if a[1] != b[1]:
        return a if b[1] else b
    if a[0] is None or b[0] is None:
        return (None, a[1])
    return a if a[0] <= b[0] else b


def _own_availability(usr, symbols, definitions, parsed, report, occ):
    entry = symbols.lookup(usr)
    if entry is not None:
        module, name, kind, availability = entry
        if availability is None and report is not None:
            report.toolchain_without_apple.setdefault(module, set()).add(name or occ.name)
        return (module, name, kind, availability) if availability else None
    definition = definitions.get(usr)
    if definition is None or definition.file not in parsed:
        if report is not None:
            report.unresolved[usr] = occ.name
        return None
    source, scopes = parsed[definition.file]
    offset = source.offset(definition.line, definition.column)
    availability = {}
    for platform in PLATFORMS:
        introduced, unavailable = scopes.declaration(offset, platform)
        if introduced or unavailable:
            availability[platform] = (introduced, unavailable)
    if not availability:
        return None
    return (definition.module, _qualified_name(usr, definitions),
            KIND_NAMES.get(definition.kind, "declaration"), availability)


def _qualified_name(usr, definitions):
    names, seen = [], set()
    while usr and usr in definitions and usr not in seen:
        seen.add(usr)
        names.append(definitions[usr].name)
        usr = definitions[usr].parent
    return ".".join(reversed(names))
