"""Reads a compiler index store (the one `swift build` writes) through libIndexStore's C API.

Only what the availability check needs: every unit (one per compiled source file), and each
unit's occurrences with the symbol's USR, name and kind, the occurrence's roles, line and
column. The C API is documented in the toolchain's `indexstore/indexstore.h`.
"""
import ctypes
import os
from dataclasses import dataclass

# Roles (indexstore_symbol_role_t).
ROLE_DECLARATION = 1 << 0
ROLE_DEFINITION = 1 << 1
ROLE_REFERENCE = 1 << 2
ROLE_CALL = 1 << 5
ROLE_IMPLICIT = 1 << 8
ROLE_REL_CHILDOF = 1 << 9
ROLE_REL_BASEOF = 1 << 10
ROLE_REL_OVERRIDEOF = 1 << 11
ROLE_REL_CONTAINEDBY = 1 << 16

# Symbol kinds (indexstore_symbol_kind_t) the check names in its output.
KIND_NAMES = {
    1: "module", 5: "enum", 6: "struct", 7: "class", 8: "protocol", 9: "extension",
    11: "typealias", 12: "func", 13: "var", 14: "field", 15: "case", 16: "method",
    17: "class method", 18: "static method", 19: "property", 20: "class property",
    21: "static property", 22: "init", 23: "deinit", 25: "parameter", 4: "macro",
}

UNIT_DEPENDENCY_UNIT = 1
UNIT_DEPENDENCY_RECORD = 2


class IndexStoreError(Exception):
    """The library or the store could not be opened or read."""


class _StringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t)]

    def text(self) -> str:
        if not self.data or not self.length:
            return ""
        return ctypes.string_at(self.data, self.length).decode("utf-8", "replace")


_BOOL_FN = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, _StringRef)
_BOOL_PTR_FN = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, ctypes.c_void_p)


def _library_path() -> str:
    """libIndexStore.so of the toolchain whose `swift` is on PATH (…/usr/bin/swift → …/usr/lib)."""
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        swift = os.path.join(directory, "swift")
        if os.path.isfile(swift):
            usr = os.path.dirname(os.path.dirname(os.path.realpath(swift)))
            candidate = os.path.join(usr, "lib", "libIndexStore.so")
            if os.path.exists(candidate):
                return candidate
    raise IndexStoreError("libIndexStore.so not found next to the `swift` on PATH (…/usr/lib)")


def _load(path: str):
    lib = ctypes.CDLL(path)
    vp, cp = ctypes.c_void_p, ctypes.c_char_p
    err = ctypes.POINTER(ctypes.c_void_p)
    signatures = {
        "indexstore_error_get_description": (cp, [vp]),
        "indexstore_error_dispose": (None, [vp]),
        "indexstore_store_create": (vp, [cp, err]),
        "indexstore_store_dispose": (None, [vp]),
        "indexstore_store_units_apply_f": (ctypes.c_bool, [vp, ctypes.c_uint, vp, _BOOL_FN]),
        "indexstore_unit_reader_create": (vp, [vp, cp, err]),
        "indexstore_unit_reader_dispose": (None, [vp]),
        "indexstore_unit_reader_get_main_file": (_StringRef, [vp]),
        "indexstore_unit_reader_get_module_name": (_StringRef, [vp]),
        "indexstore_unit_reader_get_target": (_StringRef, [vp]),
        "indexstore_unit_reader_is_system_unit": (ctypes.c_bool, [vp]),
        "indexstore_unit_reader_get_modification_time":
            (None, [vp, ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64)]),
        "indexstore_unit_reader_dependencies_apply_f": (ctypes.c_bool, [vp, vp, _BOOL_PTR_FN]),
        "indexstore_unit_dependency_get_kind": (ctypes.c_int, [vp]),
        "indexstore_unit_dependency_is_system": (ctypes.c_bool, [vp]),
        "indexstore_unit_dependency_get_filepath": (_StringRef, [vp]),
        "indexstore_unit_dependency_get_modulename": (_StringRef, [vp]),
        "indexstore_unit_dependency_get_name": (_StringRef, [vp]),
        "indexstore_record_reader_create": (vp, [vp, cp, err]),
        "indexstore_record_reader_dispose": (None, [vp]),
        "indexstore_record_reader_occurrences_apply_f": (ctypes.c_bool, [vp, vp, _BOOL_PTR_FN]),
        "indexstore_occurrence_get_symbol": (vp, [vp]),
        "indexstore_occurrence_get_roles": (ctypes.c_uint64, [vp]),
        "indexstore_occurrence_get_line_col":
            (None, [vp, ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint)]),
        "indexstore_occurrence_relations_apply_f": (ctypes.c_bool, [vp, vp, _BOOL_PTR_FN]),
        "indexstore_symbol_relation_get_roles": (ctypes.c_uint64, [vp]),
        "indexstore_symbol_relation_get_symbol": (vp, [vp]),
        "indexstore_symbol_get_kind": (ctypes.c_int, [vp]),
        "indexstore_symbol_get_language": (ctypes.c_int, [vp]),
        "indexstore_symbol_get_name": (_StringRef, [vp]),
        "indexstore_symbol_get_usr": (_StringRef, [vp]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes
    return lib


@dataclass(frozen=True)
class Unit:
    """One compiled source file: its unit name, main file, module and the record of its occurrences."""
    name: str
    main_file: str
    module: str
    record: str
    modified: float
    is_system: bool
    imported_modules: tuple  # (module name, is system) of the unit's module dependencies


@dataclass(frozen=True)
class Occurrence:
    usr: str
    name: str
    kind: int
    roles: int
    line: int
    column: int  # 1-based, in UTF-8 bytes
    related: tuple  # (roles, usr) of the occurrence's relations


class IndexStore:
    """An open index store; `units()` and `occurrences(unit)` read it."""

    def __init__(self, path: str, library: str = None):
        if not os.path.isdir(path):
            raise IndexStoreError(f"no index store at {path}")
        self._lib = _load(library or _library_path())
        error = ctypes.c_void_p()
        self._store = self._lib.indexstore_store_create(path.encode(), ctypes.byref(error))
        if not self._store:
            raise IndexStoreError(f"cannot open the index store {path}: {self._error_text(error)}")

    def close(self):
        if self._store:
            self._lib.indexstore_store_dispose(self._store)
            self._store = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _error_text(self, error) -> str:
        if not error.value:
            return "unknown error"
        text = self._lib.indexstore_error_get_description(error).decode("utf-8", "replace")
        self._lib.indexstore_error_dispose(error)
        return text

    def unit_names(self) -> list:
        names = []

        @_BOOL_FN
        def collect(_context, name):
            names.append(name.text())
            return True

        self._lib.indexstore_store_units_apply_f(self._store, 1, None, collect)
        return names

    def unit(self, name: str) -> Unit:
        lib = self._lib
        error = ctypes.c_void_p()
        reader = lib.indexstore_unit_reader_create(self._store, name.encode(), ctypes.byref(error))
        if not reader:
            raise IndexStoreError(f"cannot read unit {name}: {self._error_text(error)}")
        try:
            main_file = lib.indexstore_unit_reader_get_main_file(reader).text()
            module = lib.indexstore_unit_reader_get_module_name(reader).text()
            seconds, nanoseconds = ctypes.c_int64(), ctypes.c_int64()
            lib.indexstore_unit_reader_get_modification_time(
                reader, ctypes.byref(seconds), ctypes.byref(nanoseconds))
            records, modules = [], []

            @_BOOL_PTR_FN
            def dependency(_context, dep):
                kind = lib.indexstore_unit_dependency_get_kind(dep)
                if kind == UNIT_DEPENDENCY_RECORD:
                    records.append((lib.indexstore_unit_dependency_get_filepath(dep).text(),
                                    lib.indexstore_unit_dependency_get_name(dep).text()))
                elif kind == UNIT_DEPENDENCY_UNIT:
                    modules.append((lib.indexstore_unit_dependency_get_modulename(dep).text(),
                                    bool(lib.indexstore_unit_dependency_is_system(dep))))
                return True

            lib.indexstore_unit_reader_dependencies_apply_f(reader, None, dependency)
            record = next((r for path, r in records if path == main_file), "")
            return Unit(name=name, main_file=main_file, module=module, record=record,
                        modified=seconds.value + nanoseconds.value / 1e9,
                        is_system=bool(lib.indexstore_unit_reader_is_system_unit(reader)),
                        imported_modules=tuple(modules))
        finally:
            lib.indexstore_unit_reader_dispose(reader)

    def occurrences(self, record: str) -> list:
        lib = self._lib
        error = ctypes.c_void_p()
        reader = lib.indexstore_record_reader_create(self._store, record.encode(), ctypes.byref(error))
        if not reader:
            raise IndexStoreError(f"cannot read record {record}: {self._error_text(error)}")
        found = []
        symbols = {}  # symbol pointer → (usr, name, kind), valid while the reader lives
        line, column = ctypes.c_uint(), ctypes.c_uint()

        def describe(symbol):
            known = symbols.get(symbol)
            if known is None:
                known = (lib.indexstore_symbol_get_usr(symbol).text(),
                         lib.indexstore_symbol_get_name(symbol).text(),
                         lib.indexstore_symbol_get_kind(symbol))
                symbols[symbol] = known
            return known

        @_BOOL_PTR_FN
        def occurrence(_context, occ):
            usr, name, kind = describe(lib.indexstore_occurrence_get_symbol(occ))
            roles = lib.indexstore_occurrence_get_roles(occ)
            lib.indexstore_occurrence_get_line_col(occ, ctypes.byref(line), ctypes.byref(column))
            related = []

            @_BOOL_PTR_FN
            def relation(_c, rel):
                related.append((lib.indexstore_symbol_relation_get_roles(rel),
                                describe(lib.indexstore_symbol_relation_get_symbol(rel))[0]))
                return True

            lib.indexstore_occurrence_relations_apply_f(occ, None, relation)
            found.append(Occurrence(usr, name, kind, roles, line.value, column.value, tuple(related)))
            return True

        try:
            lib.indexstore_record_reader_occurrences_apply_f(reader, None, occurrence)
        finally:
            lib.indexstore_record_reader_dispose(reader)
        return found
