"""The Apple availability of the toolchain's declarations (Swift, _Concurrency, Foundation,
Observation, Synchronization, Dispatch, Testing …), by USR.

`swift-symbolgraph-extract` reads each module of the toolchain (`usr/lib/swift/linux`,
binary-only ones too) and writes every public symbol with its precise identifier (the USR
the index records) and its `availability` entries, the Apple domains included. The entries
already hold what the symbol inherits from its type and extension (`@available` on an
extension appears on each member). The table is cached under the build directory, keyed by
the toolchain's version and its modules' files.
"""
import concurrent.futures
import hashlib
import json
import os
import subprocess
import tempfile

from .platforms import PLATFORMS, Version
from .scopes import AvailableAttr, level

CACHE_FORMAT = 4


def toolchain_modules(swift_lib: str) -> list:
    """Names of the Swift modules in the toolchain's `usr/lib/swift/linux`."""
    names = []
    for entry in sorted(os.listdir(swift_lib)):
        if entry.endswith(".swiftmodule"):
            names.append(entry[: -len(".swiftmodule")])
    return names


def _fingerprint(swift_lib: str, modules: list, tool: str) -> str:
    digest = hashlib.sha256()
    digest.update(f"{CACHE_FORMAT}\n{os.path.realpath(tool)}\n".encode())
    for name in modules:
        path = os.path.join(swift_lib, name + ".swiftmodule")
        for root, _dirs, files in os.walk(path):
            for file in sorted(files):
                stat = os.stat(os.path.join(root, file))
                digest.update(f"{file} {stat.st_size} {int(stat.st_mtime)}\n".encode())
    return digest.hexdigest()[:16]


def _availability(entries) -> dict:
    """A symbol graph's `availability` array → {platform: [introduced or None, unavailable]},
    only for platforms it constrains; None when it constrains none."""
    attrs = []
    for entry in entries or []:
        domain = entry.get("domain", "")
        introduced = entry.get("introduced")
        attrs.append(AvailableAttr(domain, Version.parse(introduced) if introduced else None,
                                   bool(entry.get("isUnconditionallyUnavailable"))))
    result = {}
    for platform in PLATFORMS:
        introduced, unavailable = level(attrs, platform)
        if introduced or unavailable:
            result[platform] = [str(introduced) if introduced else None, unavailable]
    return result or None


def _extract(tool, target, module, directory):
    out = os.path.join(directory, module)
    os.makedirs(out, exist_ok=True)
    completed = subprocess.run(
        [tool, "-module-name", module, "-target", target, "-output-dir", out,
         "-minimum-access-level", "public"],
        capture_output=True, text=True)
    table, defaults = {}, {}
    if completed.returncode != 0:
        return module, table, defaults, completed.stderr.strip().splitlines()[-1:] or ["failed"]
    for file in sorted(os.listdir(out)):
        if not file.endswith(".symbols.json"):
            continue
        with open(os.path.join(out, file)) as handle:
            graph = json.load(handle)
        # `A.symbols.json` holds A's symbols; `A@B.symbols.json` A's extensions of B's types.
        declaring = file[: -len(".symbols.json")].split("@")[0]
        for symbol in graph.get("symbols", []):
            usr = symbol["identifier"]["precise"]
            if "::SYNTHESIZED::" in usr:
                continue  # a protocol extension's member shown on a conformer; the index names the original
            table[usr] = [declaring, ".".join(symbol.get("pathComponents", [])),
                          symbol.get("kind", {}).get("identifier", "").replace("swift.", ""),
                          _availability(symbol.get("availability")), "swiftExtension" in symbol, ""]
        for relation in graph.get("relationships", []):
            if relation.get("kind") == "memberOf" and relation["source"] in table:
                table[relation["source"]][5] = relation["target"]
            if relation.get("kind") == "defaultImplementationOf" and "::SYNTHESIZED::" not in relation["source"]:
                defaults.setdefault(relation["target"], []).append(relation["source"])
    return module, table, defaults, None


def _drop_type_availability(table):
    """A member declared in its type's body is not checked for the type's availability (a value
    or mention of the type is); symbol graphs copy the type's availability onto such members, so
    where a member's equals its type's, it is the type's and is dropped. A member of an extension
    keeps it: the compiler checks a use of it for the extension's `@available`, which the graph
    shows the same way (scopes.FileScopes.declaration has the rule for source declarations)."""
    merged = {usr: entry[3] for usr, entry in table.items()}
    for entry in table.values():
        _module, _name, _kind, availability, in_extension, parent = entry
        if in_extension or not availability or parent not in table:
            continue
        inherited = merged[parent] or {}
        # Empty, not None: the member has availability, all of it its type's.
        entry[3] = {p: v for p, v in availability.items() if inherited.get(p) != v}


class ToolchainSymbols:
    """USR → (module, readable name, kind, {platform: (introduced, unavailable)}), the mapping
    None for a declaration whose graph has no Apple availability at all."""

    def __init__(self, table: dict, defaults: dict, failures: dict):
        self._table = table
        self._defaults = defaults
        self.failures = failures

    def default_implementations(self, usr):
        """The protocol-extension members that implement the requirement `usr`."""
        return self._defaults.get(usr, ())

    def __contains__(self, usr):
        return usr in self._table

    def lookup(self, usr):
        entry = self._table.get(usr)
        if entry is None:
            return None
        module, name, kind, availability = entry[:4]
        parsed = None if availability is None else {}
        if availability:
            parsed = {p: (Version.parse(v[0]) if v[0] else None, v[1]) for p, v in availability.items()}
        return module, name, kind, parsed

    @staticmethod
    def load(swift: str, cache_dir: str, target: str = "x86_64-unknown-linux-gnu", log=None):
        """Reads the cached table for the toolchain of `swift`, extracting it when missing."""
        usr = os.path.dirname(os.path.dirname(os.path.realpath(swift)))
        tool = os.path.join(usr, "bin", "swift-symbolgraph-extract")
        swift_lib = os.path.join(usr, "lib", "swift", "linux")
        modules = toolchain_modules(swift_lib)
        cache = os.path.join(cache_dir, f"toolchain-symbols-{_fingerprint(swift_lib, modules, tool)}.json")
        if os.path.exists(cache):
            with open(cache) as handle:
                data = json.load(handle)
            return ToolchainSymbols(data["symbols"], data["defaults"], data["failures"])
        if log:
            log(f"availability: reading the availability of {len(modules)} toolchain modules "
                f"(once per toolchain, cached in {os.path.relpath(cache)})")
        table, defaults, failures = {}, {}, {}
        with tempfile.TemporaryDirectory() as directory:
            workers = max(1, min(4, os.cpu_count() or 1))
            with concurrent.futures.ThreadPoolExecutor(workers) as pool:
                jobs = [pool.submit(_extract, tool, target, m, directory) for m in modules]
                for job in jobs:
                    module, symbols, implementations, failure = job.result()
                    if failure:
                        failures[module] = failure[0]
                    for key, value in symbols.items():
                        table.setdefault(key, value)
                    for key, value in implementations.items():
                        defaults.setdefault(key, []).extend(value)
        _drop_type_availability(table)
        # Only requirements that constrain some platform need their defaults.
        defaults = {k: sorted(set(v)) for k, v in defaults.items() if k in table and table[k][3]}
        os.makedirs(cache_dir, exist_ok=True)
        partial = f"{cache}.{os.getpid()}.partial"  # two runs at once each write their own
        with open(partial, "w") as handle:
            json.dump({"symbols": table, "defaults": defaults, "failures": failures}, handle)
        os.replace(partial, cache)
        return ToolchainSymbols(table, defaults, failures)
