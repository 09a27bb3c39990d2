"""The availability scopes of one source file, read from the compiler's parse tree.

Two kinds, as the compiler's availability contexts:

- a declaration with `@available` (function, type, extension, property, initializer …): its
  attributes and the bytes from its first attribute to its end. The declaration itself, its
  signature, inheritance clause and body are inside, and so are the declarations nested in it;
- an `if #available` (its then-branch, and the conditions after the query), an
  `if #unavailable` (its else-branch), a `guard #available` (the rest of the enclosing block
  after the guard) and a `guard #unavailable` (its else-body).

A `#available` query is a runtime check of the platforms it names: the compiler does not
let visionOS use an `iOS` query (so on visionOS, `#available(iOS 17, *)` is the `*` case),
while an `@available(iOS …)` declaration without a visionOS entry is also visionOS's
(`platforms.visionos_from_ios`).
"""
import re
from dataclasses import dataclass

from .platforms import Version, platform_for_domain, visionos_from_ios


@dataclass(frozen=True)
class AvailableAttr:
    domain: str
    introduced: object = None   # Version or None
    unavailable: bool = False


_NOMINAL_KINDS = {"class_decl", "struct_decl", "enum_decl", "protocol"}
_EXTENSION_KIND = "extension_decl"
_TYPE_KEYWORD = re.compile(rb"(struct|class|enum|protocol|actor)\s+$")


@dataclass(frozen=True)
class DeclScope:
    start: int
    end: int
    attrs: tuple
    kind: str = ""
    keyword: int = 0     # where the declaration's range starts (its keyword); `start` includes its attributes

    @property
    def nominal(self):
        return self.kind in _NOMINAL_KINDS


@dataclass(frozen=True)
class QueryScope:
    start: int
    end: int
    versions: tuple      # ((platform, Version), …) the query names
    anchor: int          # offset of the if/guard statement (for `#if` clauses around it)


class ParseTreeError(Exception):
    """The compiler's parse tree could not be read."""


def _validate(node):
    """The compiler prints some constructs with a missing closing bracket, which shows as a field
    without a name; a tree like that is not read (`sourcetext.py` avoids the known case)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "":
                raise ParseTreeError("the compiler printed a malformed parse tree (an unnamed field)")
            _validate(value)
    elif isinstance(node, list):
        for item in node:
            _validate(item)


def level(attrs, platform):
    """(introduced or None, unavailable) that one declaration's attributes give `platform`."""
    own = [a for a in attrs if platform_for_domain(a.domain) == platform]
    if not own and platform == "visionOS":
        own = [AvailableAttr("visionOS", visionos_from_ios(a.introduced) if a.introduced else None,
                             a.unavailable)
               for a in attrs if platform_for_domain(a.domain) == "iOS"]
    unavailable = any(a.unavailable for a in own) or any(
        a.domain == "*" and a.unavailable for a in attrs)
    introduced = max((a.introduced for a in own if a.introduced), default=None)
    return introduced, unavailable


def attrs_from_json(node) -> tuple:
    found = []
    for attr in node.get("attrs") or []:
        if not isinstance(attr, dict) or attr.get("_kind") != "available_attr":
            continue
        introduced = attr.get("introduced")
        found.append(AvailableAttr(attr.get("domainIdentifier", ""),
                                   Version.parse(introduced) if introduced else None,
                                   bool(attr.get("unavailable"))))
    return tuple(found)


class FileScopes:
    """The scopes of one file, and the availability context at any of its offsets."""

    def __init__(self, tree: dict, source):
        self.source = source
        self.decls, self.queries = [], []
        _validate(tree)
        self._walk_list(tree.get("items") or [], None, top_level_end=len(source.text))

    @staticmethod
    def empty(source):
        return FileScopes({"items": []}, source)

    # --- reading the tree ---

    def _walk_list(self, items, container_end, top_level_end=None):
        last_binding = None
        for item in items:
            if not isinstance(item, dict):
                continue
            kind = item.get("_kind")
            if kind == "pattern_binding_decl":
                last_binding = item
            if kind == "guard_stmt" and container_end is not None:
                self._guard(item, container_end)
            self._walk(item, binding=last_binding if kind == "var_decl" else None,
                       top_level_end=top_level_end if kind == "top_level_code_decl" else None)

    def _walk(self, node, binding=None, top_level_end=None):
        kind = node.get("_kind", "")
        rng = node.get("range")
        if kind == "brace_stmt":
            end = rng["end"] if isinstance(rng, dict) else None
            if top_level_end is not None:
                end = top_level_end  # a guard in top-level code covers the rest of the file
            self._walk_list(node.get("elements") or [], end)
            return
        attrs = attrs_from_json(node)
        if (attrs or kind in _NOMINAL_KINDS or kind == _EXTENSION_KIND) and isinstance(rng, dict):
            start, end = rng["start"], rng["end"]
            if kind == "var_decl":
                # A property's range is its name; its type, initializer and accessors are in
                # the pattern binding before it and in its accessors.
                if binding and isinstance(binding.get("range"), dict):
                    start = min(start, binding["range"]["start"])
                    end = max(end, binding["range"]["end"])
                for accessor in node.get("accessors") or []:
                    if isinstance(accessor, dict) and isinstance(accessor.get("range"), dict):
                        end = max(end, accessor["range"]["end"])
            self.decls.append(DeclScope(self._attributes_start(start) if attrs else start, end, attrs, kind,
                                        rng["start"]))
        if kind == "if_stmt":
            self._if(node)
        for value in node.values():
            if isinstance(value, dict):
                self._walk(value, top_level_end=top_level_end)
            elif isinstance(value, list):
                self._walk_list(value, None)

    def _attributes_start(self, start):
        """A declaration's range starts at its keyword; its attributes (which the prepared text
        blanked, but which are part of it: `@Observable` on an `@available` class) come before.
        Walks back over the attributes that only modifiers, whitespace and comments separate
        from it."""
        text = self.source.text
        attrs = [a for a in self.source.attributes if a.end <= start]
        position = start
        for attr in reversed(attrs):
            gap = text[attr.end:position]
            for c_start, c_end in self.source.comments:
                if attr.end <= c_start and c_end <= position:
                    gap = gap.replace(text[c_start:c_end], b" ")
            for other in self.source.attributes:
                if attr.end <= other.start and other.end <= position:
                    gap = gap.replace(text[other.start:other.end], b" ")
            if not _only_modifiers(gap):
                break
            position = attr.start
        return position

    @staticmethod
    def _query(conditions):
        """(versions, is_unavailable) of the first `#available`/`#unavailable` among conditions,
        and whether it is the first condition."""
        for index, condition in enumerate(conditions or []):
            if isinstance(condition, dict) and condition.get("_kind") == "#available":
                specs = condition.get("queries") or []
                wildcard = any(s.get("domain") == "*" for s in specs)
                versions = tuple((platform_for_domain(s.get("domain", "")), Version.parse(s["version"]))
                                 for s in specs
                                 if platform_for_domain(s.get("domain", "")) and s.get("version"))
                # `#unavailable` is printed as `#available` without its `*` (which it may not have,
                # and `#available` must have).
                return versions, not wildcard, index == 0
        return None

    def _if(self, node):
        query = self._query(node.get("conditions"))
        if not query:
            return
        versions, unavailable, first = query
        then_stmt, else_stmt = node.get("then_stmt"), node.get("else_stmt")
        rng = node["range"]
        if not unavailable and isinstance(then_stmt, dict):
            start = rng["start"] if first else then_stmt["range"]["start"]
            self.queries.append(QueryScope(start, then_stmt["range"]["end"], versions, rng["start"]))
        elif unavailable and isinstance(else_stmt, dict) and len(node.get("conditions")) == 1:
            self.queries.append(QueryScope(else_stmt["range"]["start"], else_stmt["range"]["end"],
                                           versions, rng["start"]))

    def _guard(self, node, container_end):
        query = self._query(node.get("conditions"))
        if not query:
            return
        versions, unavailable, _ = query
        rng = node["range"]
        if not unavailable:
            self.queries.append(QueryScope(rng["end"] + 1, container_end, versions, rng["start"]))
        elif isinstance(node.get("body"), dict) and len(node.get("conditions")) == 1:
            body = node["body"]["range"]
            self.queries.append(QueryScope(body["start"], body["end"], versions, rng["start"]))

    # --- answers ---

    def declaration(self, offset, platform):
        """(introduced or None, unavailable) of the declaration whose name is at `offset`, as a
        use of it is checked: its own `@available` and those of the extensions around it, not
        those of the type it is a member of. A member of a type can only be reached through a
        value or a mention of that type, which is checked itself; the compiler does not check
        the member again for the type's availability (measured: `Fixtures/availability/Oracle`).
        """
        introduced, unavailable = None, False
        enclosing = sorted((s for s in self.decls if s.start <= offset <= s.end),
                           key=lambda s: s.start, reverse=True)
        for scope in enclosing:
            if scope.nominal and not _TYPE_KEYWORD.fullmatch(self.source.text[scope.keyword:offset]):
                break  # the type this declaration is a member of
            version, gone = level(scope.attrs, platform)
            unavailable = unavailable or gone
            if version and (introduced is None or version > introduced):
                introduced = version
        return introduced, unavailable

    def _context_declaration(self, offset, platform):
        """What the enclosing declarations (types included) let the code at `offset` assume."""
        introduced, unavailable = None, False
        for scope in self.decls:
            if scope.attrs and scope.start <= offset <= scope.end:
                version, gone = level(scope.attrs, platform)
                unavailable = unavailable or gone
                if version and (introduced is None or version > introduced):
                    introduced = version
        return introduced, unavailable

    def context(self, offset, platform, floor, query_applies=lambda scope: True):
        """(version the code at `offset` may assume on `platform`, or None where the code is
        unavailable on it)."""
        introduced, unavailable = self._context_declaration(offset, platform)
        if unavailable:
            return None
        version = max(floor, introduced) if introduced else floor
        for scope in self.queries:
            if scope.start <= offset <= scope.end and query_applies(scope):
                for named, required in scope.versions:
                    if named == platform and required > version:
                        version = required
        return version


_MODIFIERS = {b"public", b"private", b"fileprivate", b"internal", b"package", b"open", b"final",
              b"static", b"class", b"override", b"required", b"convenience", b"mutating",
              b"nonmutating", b"lazy", b"weak", b"unowned", b"dynamic", b"optional", b"indirect",
              b"nonisolated", b"distributed", b"consuming", b"borrowing", b"prefix", b"postfix",
              b"infix", b"set", b"unsafe", b"(", b")"}


def _only_modifiers(gap: bytes) -> bool:
    words = gap.replace(b"(", b" ( ").replace(b")", b" ) ").split()
    return all(word in _MODIFIERS for word in words)
