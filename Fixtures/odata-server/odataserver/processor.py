"""odatapy's in-memory processor with the fixture's keys, timestamps and the two modes.

Both modes: Customers and Orders get the next key of a counter that never reuses a key
(a key the client sends there is ignored); a Task without ``ID`` gets a random Guid;
``CreatedAt``/``ModifiedAt`` are written by the server (what the client sends for them is
ignored), to the millisecond, from :class:`Clock`, frozen for the length of an atomicity
group; an Order whose ``CustomerID`` names no Customer is refused with 400.

``delta`` mode changes nothing else: ETags are odatapy's version counters.

``plain`` mode imitates another framework (see Docs/ODataFacts.md): ETags are
``W/"<ModifiedAt in ms>"``; no 428 without ``If-Match``; a create of an existing key is a
500; a write with a non-``*`` ``If-Match`` to a missing key is 412 (404 with ``*`` or
without one); collections are ordered by key and paged by a row-offset ``$skiptoken``
with a fixed page size that neither ``$top`` nor ``odata.maxpagesize`` changes.
"""

from __future__ import annotations

import bisect
import threading
import time
import uuid
from datetime import datetime, timezone
from typing import Any

from odatapy.data import Entity, ValueType
from odatapy.errors import ODataApplicationException, PreconditionException
from odatapy.http.status import HttpStatusCode
from odatapy.server.inmemory import InMemoryProcessor, _eval_filter
from odatapy.server.uri.expression import Binary, BinaryOperatorKind, Member
from odatapy.server.processor import CustomETagSupport
from odatapy.server.support import parse_etag_header

from .model import ENTITY_SETS, TIMESTAMPS
from .store import PersistentStore, key_text, sort_value


class Clock:
    """Milliseconds since 1970: the wall clock, or a value the fixture was told to use."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._fixed: int | None = None
        self._group: int | None = None

    def set_fixed(self, ms: int | None) -> None:
        with self._lock:
            self._fixed = ms

    def freeze_for_group(self) -> None:
        with self._lock:
            self._group = self._now()

    def thaw(self) -> None:
        with self._lock:
            self._group = None

    def _now(self) -> int:
        return self._fixed if self._fixed is not None else time.time_ns() // 1_000_000

    def now_ms(self) -> int:
        with self._lock:
            return self._group if self._group is not None else self._now()


def _datetime(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc)


class FixtureProcessor(InMemoryProcessor, CustomETagSupport):
    """The processors of both modes; ``mode`` is ``"delta"`` or ``"plain"``."""

    def __init__(self, store: PersistentStore, mode: str, page_size: int, clock: Clock) -> None:
        # Plain mode pages itself (below); odatapy's paging serves delta mode.
        super().__init__(store, page_size=page_size if mode == "delta" else None)
        self.store: PersistentStore = store
        self.mode = mode
        self.plain_page_size = page_size
        self.clock = clock

    # --- ETags -------------------------------------------------------------
    def has_etag(self, entity_set_or_singleton: Any) -> bool:
        return True

    def _bump_etag(self, entity_set, entity: Entity | None, *, create: bool = False) -> None:
        if entity is None or entity_set is None:
            return
        now = self.clock.now_ms()
        if create or entity.get_value("CreatedAt") is None:
            entity.set_property("CreatedAt", _datetime(now), ValueType.PRIMITIVE, "Edm.DateTimeOffset")
        entity.set_property("ModifiedAt", _datetime(now), ValueType.PRIMITIVE, "Edm.DateTimeOffset")
        _complete(entity_set.entity_type, entity)
        if self.mode == "plain":
            entity.etag = f'W/"{now}"'
        else:
            super()._bump_etag(entity_set, entity, create=create)
        self.store.mark_dirty(entity_set.name, entity)

    def _resolve(self, request, uri_info, *, for_write: bool = False):
        # A write's target set is not copied (PersistentStore.entities says why).
        if not for_write:
            return super()._resolve(request, uri_info)
        with self.store.resolving_write():
            return super()._resolve(request, uri_info, for_write=True)

    # --- keys ----------------------------------------------------------------
    def _assign_keys(self, entity_set, entity: Entity) -> None:
        _type_name, key_name, key_type, server_assigned = ENTITY_SETS[entity_set.name]
        if server_assigned:
            entity.properties = [p for p in entity.properties if p.name != key_name]
            entity.set_property(key_name, self.store.next_key(entity_set.name), ValueType.PRIMITIVE, key_type)
        elif entity.get_value(key_name) is None:
            entity.set_property(key_name, uuid.uuid4(), ValueType.PRIMITIVE, key_type)
        # What the client sent for the server's own fields is dropped; _bump_etag writes them.
        entity.properties = [p for p in entity.properties if p.name not in TIMESTAMPS]

    def _check_duplicate(self, entity_set, entity: Entity) -> None:
        key_name = ENTITY_SETS[entity_set.name][1]
        if self.store.find(entity_set.name, key_text(entity.get_value(key_name))) is not None:
            if self.mode == "plain":
                raise ODataApplicationException(
                    "An error occurred while saving the entity changes. See the inner exception for details.",
                    HttpStatusCode.INTERNAL_SERVER_ERROR,
                    code="InternalServerError",
                )
            super()._check_duplicate(entity_set, entity)
        self._check_reference(entity_set.name, entity)

    def _check_reference(self, entity_set: str, entity: Entity) -> None:
        if entity_set != "Orders" or entity.get_property("CustomerID") is None:
            return
        customer = entity.get_value("CustomerID")
        if customer is None or self.store.find("Customers", key_text(customer)) is None:
            raise ODataApplicationException(
                f"CustomerID {customer!r} names no Customer.",
                HttpStatusCode.BAD_REQUEST,
                code="400" if self.mode == "delta" else "BadRequest",
                target="CustomerID",
            )

    def _find_by_key(self, entity_set, part) -> Entity:
        keys = self._keys_of(entity_set.entity_type, part)
        key_name = ENTITY_SETS[entity_set.name][1]
        entity = self.store.find(entity_set.name, key_text(keys.get(key_name)))
        if entity is None:
            raise ODataApplicationException("Entity not found.", HttpStatusCode.NOT_FOUND, code="404")
        return entity

    def _next_key(self, entity_set) -> tuple[str, int]:
        return ENTITY_SETS[entity_set.name][1], self.store.next_key(entity_set.name)

    # --- writes ------------------------------------------------------------------
    def _apply_update(self, entity_type, existing: Entity, incoming: Entity, *, merge: bool) -> None:
        incoming.properties = [p for p in incoming.properties if p.name not in TIMESTAMPS]
        set_name = _set_of(entity_type)
        if set_name is not None:
            self._check_reference(set_name, incoming)
        kept = {name: existing.get_property(name) for name in TIMESTAMPS}
        super()._apply_update(entity_type, existing, incoming, merge=merge)
        for name, prop in kept.items():
            if prop is not None and existing.get_property(name) is None:
                existing.properties.append(prop)

    def _check_preconditions(self, request, entity_set, entity: Entity | None) -> None:
        if self.mode == "plain" and request.if_match is None and request.if_none_match is None:
            return  # no Core.OptimisticConcurrency, so no 428
        super()._check_preconditions(request, entity_set, entity)

    def _missing_target_precondition(self, request, uri_info) -> None:
        """Plain mode: a non-``*`` If-Match on a key that is not there fails as a precondition."""
        if self.mode != "plain" or request.if_match is None:
            return
        star, _ = parse_etag_header(request.if_match)
        if star:
            return
        try:
            self._resolve(request, uri_info, for_write=True)
        except ODataApplicationException as error:
            if error.status_code == 404:
                raise PreconditionException("The If-Match precondition failed.") from None
            raise

    def update_entity(self, request, response, uri_info, request_ct, response_ct) -> None:
        with self.store.lock:
            self._missing_target_precondition(request, uri_info)
            super().update_entity(request, response, uri_info, request_ct, response_ct)

    def delete_entity(self, request, response, uri_info) -> None:
        with self.store.lock:
            self._missing_target_precondition(request, uri_info)
            super().delete_entity(request, response, uri_info)

    # --- atomicity groups ----------------------------------------------------------
    def begin(self) -> Any:
        token = super().begin()
        self.clock.freeze_for_group()
        return token

    def commit(self, token: Any) -> None:
        self.clock.thaw()
        super().commit(token)

    def rollback(self, token: Any) -> None:
        self.clock.thaw()
        super().rollback(token)

    # --- pages: plain mode's row offsets (its sets are kept in key order by the store) ---
    def _page_offset(self, skiptoken, entities, entity_set) -> int:
        # odatapy looks for the token's key from the start of the result, which makes
        # reading a large set quadratic; the key is first looked for where the token's
        # offset says it was, with the same answer.
        token = str(skiptoken or "")
        fallback, _, key = token.partition("!")
        if key and entity_set is not None and fallback.isdigit():
            at = int(fallback) - 1
            if 0 <= at < len(entities) and self._key_of(entity_set, entities[at]) == key:
                return at + 1
        return super()._page_offset(skiptoken, entities, entity_set)

    def _page(self, request, uri_info, entities, prefs, entity_set=None):
        if self.mode != "plain":
            return super()._page(request, uri_info, entities, prefs, entity_set)
        token = str(uri_info.skiptoken or "0")
        if not token.isdigit():
            raise ODataApplicationException(
                f"The skip token '{token}' is not valid.", HttpStatusCode.BAD_REQUEST, code="BadRequest"
            )
        offset = int(token)
        size = self.plain_page_size
        window = entities[offset: offset + size]
        next_link = None
        if offset + size < len(entities):
            next_link = self._next_link(request, str(offset + size))
        return next_link, window, None


    # --- key-range reads: what a key index gives a database-backed service ---
    def _filter_sort(self, entities, uri_info, *, sort=True, entity_type=None, ctx=None):
        # A read ordered by key and filtered to a range of keys (`$filter=[... and ]Key gt a
        # [and Key le b]&$orderby=Key`, how a client pages by key, one range or several at
        # once), or ordered by key descending (`$orderby=Key desc&$top=1`, the largest key), is
        # answered from plain mode's key order by a binary search, as an indexed
        # `WHERE Key > a AND Key <= b ORDER BY Key [DESC]` would be: odatapy otherwise evaluates
        # the filter on every entity and sorts the set for each page, which makes paging a
        # large set by key quadratic. Same answer either way.
        window = self._key_range(entities, uri_info, entity_type) if sort else None
        if window is None:
            return super()._filter_sort(entities, uri_info, sort=sort, entity_type=entity_type, ctx=ctx)
        rest, within = window
        if rest is None:
            return within
        return [e for e in within if _eval_filter(e, rest, uri_info.aliases, ctx)]

    def _key_range(self, entities, uri_info, entity_type):
        """(the rest of the filter or None, the entities in key order within the filter's key
        bounds), or None when the read is not one a key index answers."""
        set_name = _set_of(entity_type)
        if not self.store.key_ordered or set_name is None or uri_info.search is not None:
            return None
        key = ENTITY_SETS[set_name][1]
        order = uri_info.orderby
        if order is None or len(order.items) != 1 or not _is_member(order.items[0].expression, key):
            return None
        descending = order.items[0].descending
        values = self.store.order.get(set_name, [])
        if len(values) != len(entities):
            return None
        expression = uri_info.filter.expression if uri_info.filter is not None else None
        if expression is None:
            return None, entities[::-1] if descending else entities
        bounds, rest = [], []
        for term in _conjuncts(expression):
            bound = _key_bound(term, key)
            if bound is None:
                rest.append(term)
            else:
                bounds.append(bound)
        if not bounds and not descending:
            return None
        start, end = 0, len(values)
        for operator, value in bounds:
            value = sort_value(value)
            if operator is BinaryOperatorKind.GT:
                start = max(start, bisect.bisect_right(values, value))
            elif operator is BinaryOperatorKind.GE:
                start = max(start, bisect.bisect_left(values, value))
            elif operator is BinaryOperatorKind.LT:
                end = min(end, bisect.bisect_left(values, value))
            else:
                end = min(end, bisect.bisect_right(values, value))
        remaining = None
        for term in rest:
            remaining = term if remaining is None else Binary(BinaryOperatorKind.AND, remaining, term)
        within = entities[start:max(start, end)]
        return remaining, within[::-1] if descending else within


def _conjuncts(expression) -> list:
    """The terms of `a and b and ...`, however parenthesised."""
    if isinstance(expression, Binary) and expression.operator is BinaryOperatorKind.AND:
        return _conjuncts(expression.left) + _conjuncts(expression.right)
    return [expression]


_KEY_BOUNDS = (BinaryOperatorKind.GT, BinaryOperatorKind.GE, BinaryOperatorKind.LT, BinaryOperatorKind.LE)


def _key_bound(expression, key: str):
    """(operator, value) of `Key gt|ge|lt|le <literal>`, or None."""
    if (isinstance(expression, Binary) and expression.operator in _KEY_BOUNDS and _is_member(expression.left, key)
            and getattr(expression.right, "value", None) is not None and not isinstance(expression.right, Member)):
        return expression.operator, expression.right.value
    return None


def _is_member(expression, name: str) -> bool:
    return isinstance(expression, Member) and list(expression.path) == [name]


def _complete(entity_type, entity: Entity) -> None:
    """Every declared property, in declared order: a missing one is its default or null."""
    by_name = {p.name: p for p in entity.properties}
    properties = []
    for name in entity_type.property_names:
        declared = entity_type.get_structural_property(name)
        prop = by_name.pop(name, None)
        if prop is None:
            default = declared.default_value if declared is not None else None
            value = {"true": True, "false": False}.get(default, default) if default is not None else None
            prop = Entity().set_property(name, value, ValueType.PRIMITIVE, declared.type_fqn if declared else None)
        properties.append(prop)
    entity.properties = properties + list(by_name.values())


def _set_of(entity_type) -> str | None:
    name = entity_type.name if entity_type is not None else None
    for set_name, (type_name, *_rest) in ENTITY_SETS.items():
        if type_name == name:
            return set_name
    return None



