"""odatapy's in-memory store, kept in a SQLite file so the data outlives the process.

The in-memory store stays the truth while the server runs. After each request that wrote
(and never inside an atomicity group, which can still be rolled back), the entities it
touched are written to the file as they now are in memory, with the change log's new
entries, in one SQLite transaction. On start the file is read back, change log included,
so a deltaLink handed out before a restart still works after it.

Entities are kept as odatapy's own JSON (no metadata) and read back with its deserializer,
so every EDM type comes back with its Python type. Ids in the change log are kept relative
to the service root, which changes with the port.
"""

from __future__ import annotations

import bisect
import contextlib
import gc
import sqlite3
import threading
import uuid
from typing import Any, Iterable, Iterator

from odatapy.data import Entity
from odatapy.http.content_type import ODataFormat
from odatapy.server.deserializer.json_deserializer import ODataJsonDeserializer
from odatapy.server.inmemory import InMemoryDataStore
from odatapy.server.serializer.json_serializer import EntitySerializerOptions, ODataJsonSerializer

from .model import ENTITY_SETS

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entities (
    entity_set TEXT NOT NULL, key TEXT NOT NULL, body TEXT NOT NULL, etag TEXT,
    PRIMARY KEY (entity_set, key));
CREATE TABLE IF NOT EXISTS changes (
    seq INTEGER PRIMARY KEY, entity_set TEXT NOT NULL, kind TEXT NOT NULL,
    key TEXT NOT NULL, relative_id TEXT NOT NULL);
"""


def key_text(value: Any) -> str:
    """The one spelling of a single-property key used by the index and the file."""
    return str(value)


def sort_value(value: Any) -> Any:
    """Keys in plain mode's order: integers by value, Guids as their lower-case text."""
    return str(value) if isinstance(value, uuid.UUID) else value


class StateError(Exception):
    """The state file cannot be used by this server (another mode wrote it)."""


class PersistentStore(InMemoryDataStore):
    """An :class:`InMemoryDataStore` with a key index, key counters and a SQLite file.

    In plain mode every set is kept in key order, which is the order that mode lists
    and pages in (with ``$orderby``, key order is the tie-break odatapy sorts from).
    """

    def __init__(self, path: str, mode: str) -> None:
        super().__init__()
        self.path = path
        self.mode = mode
        #: entity set -> key text -> the stored entity; kept with every insert and removal.
        self.index: dict[str, dict[str, Entity]] = {name: {} for name in ENTITY_SETS}
        self.key_ordered = mode == "plain"
        #: entity set -> the sort values of its keys, in list order (plain mode only).
        self.order: dict[str, list[Any]] = {name: [] for name in ENTITY_SETS}
        #: entity set -> the last key the server assigned (never reused after a delete).
        self.counters: dict[str, int] = {name: 0 for name in ENTITY_SETS}
        #: (entity set, key text) pairs written since the last flush.
        self.dirty: set[tuple[str, str]] = set()
        self._flushed_sequence = 0
        self._resolving_write = False
        self._db_lock = threading.Lock()
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        # Safe against the server being killed; only a machine crash may lose the last writes.
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(_SCHEMA)

    # --- the key index ---------------------------------------------------
    def _key_of(self, entity_set: str, entity: Entity) -> str:
        return key_text(entity.get_value(ENTITY_SETS[entity_set][1]))

    def _sort_value(self, entity_set: str, entity: Entity) -> Any:
        return sort_value(entity.get_value(ENTITY_SETS[entity_set][1]))

    def _reindex(self, entity_set: str) -> None:
        entities = self.data.setdefault(entity_set, [])
        if self.key_ordered:
            entities.sort(key=lambda e: self._sort_value(entity_set, e))
            self.order[entity_set] = [self._sort_value(entity_set, e) for e in entities]
        self.index[entity_set] = {self._key_of(entity_set, e): e for e in entities}

    def insert_entity(self, entity_set: str, entity: Entity, index: int | None = None) -> None:
        with self._lock:
            if self.key_ordered and index is None:
                value = self._sort_value(entity_set, entity)
                index = bisect.bisect(self.order.setdefault(entity_set, []), value)
                self.order[entity_set].insert(index, value)
            super().insert_entity(entity_set, entity, index)
            self.index.setdefault(entity_set, {})[self._key_of(entity_set, entity)] = entity

    def remove_entity(self, entity_set: str, entity: Entity) -> bool:
        with self._lock:
            removed = super().remove_entity(entity_set, entity)
            if removed:
                self.index.get(entity_set, {}).pop(self._key_of(entity_set, entity), None)
                if self.key_ordered:
                    order = self.order[entity_set]
                    del order[bisect.bisect_left(order, self._sort_value(entity_set, entity))]
            return removed

    def set_entities(self, entity_set: str, entities: list[Entity]) -> None:
        with self._lock:
            super().set_entities(entity_set, entities)
            self._reindex(entity_set)

    def entities(self, entity_set: str) -> list[Entity]:
        """odatapy's copy of a set's list, or the list itself while a write resolves its target.

        A write never reads the members of the set it resolves (a POST adds to the set, a PATCH
        or DELETE names one entity by key), and every reader of the list copies it again; the
        copy touched every stored entity, so a create cost time in proportion to the set.
        """
        with self._lock:
            if self._resolving_write:
                return self.data.setdefault(entity_set, [])
            return super().entities(entity_set)

    @contextlib.contextmanager
    def resolving_write(self) -> Iterator[None]:
        """While a write resolves its target under the store's lock: :meth:`entities` does not copy."""
        with self._lock:
            self._resolving_write = True
            try:
                yield
            finally:
                self._resolving_write = False

    def find(self, entity_set: str, key: str) -> Entity | None:
        with self._lock:
            return self.index.get(entity_set, {}).get(key)

    def mark_dirty(self, entity_set: str, entity: Entity) -> None:
        with self._lock:
            self.dirty.add((entity_set, self._key_of(entity_set, entity)))

    def next_key(self, entity_set: str) -> int:
        with self._lock:
            self.counters[entity_set] += 1
            return self.counters[entity_set]

    # --- rollback ----------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            state = super().snapshot()
            state["counters"] = dict(self.counters)
            state["dirty"] = set(self.dirty)
            return state

    def restore(self, snapshot: dict[str, Any]) -> None:
        with self._lock:
            super().restore(snapshot)
            self.counters = dict(snapshot["counters"])
            # What the group touched is written back as it now is, i.e. as before.
            self.dirty |= snapshot["dirty"]
            for name in list(self.index):
                self._reindex(name)

    # --- the file ------------------------------------------------------------
    def load(self, edm: Any, service_root: str) -> None:
        """Reads the file into memory; refuses a file another mode wrote."""
        with self._lock:
            meta = dict(self.db.execute("SELECT name, value FROM meta").fetchall())
            if "mode" in meta and meta["mode"] != self.mode:
                raise StateError(
                    f"{self.path} holds a {meta['mode']}-mode service; start it in that mode, "
                    f"or start with --fresh (or another state dir) for {self.mode} mode"
                )
            if "mode" not in meta:
                self.db.execute("INSERT INTO meta VALUES ('mode', ?)", (self.mode,))
            deserializer = ODataJsonDeserializer()
            for entity_set, (type_name, _key, _type, _assigned) in ENTITY_SETS.items():
                entity_type = edm.get_entity_set(entity_set).entity_type
                rows = self.db.execute(
                    "SELECT body, etag FROM entities WHERE entity_set = ? ORDER BY rowid", (entity_set,)
                ).fetchall()
                entities = []
                for body, etag in rows:
                    entity = deserializer.entity(edm, entity_type, body)
                    entity.etag = etag
                    entities.append(entity)
                self.set_entities(entity_set, entities)
                self.counters[entity_set] = int(meta.get(f"counter.{entity_set}", "0"))
            root = service_root.rstrip("/")
            for seq, entity_set, kind, key, relative_id in self.db.execute(
                "SELECT seq, entity_set, kind, key, relative_id FROM changes ORDER BY seq"
            ):
                entity = self.find(entity_set, key)
                if entity is None or kind == "deleted":
                    entity = Entity(id=f"{root}/{relative_id}")
                self.change_log.append(
                    {"seq": seq, "entity_set": entity_set, "kind": kind,
                     "id": f"{root}/{relative_id}", "entity": entity, "key": key}
                )
                self._sequence = seq
            self._flushed_sequence = self._sequence

    def record_change(self, entity_set: str, entity: Entity, kind: str) -> None:
        with self._lock:
            super().record_change(entity_set, entity, kind)
            self.change_log[-1]["key"] = self._key_of(entity_set, entity)

    def flush(self, edm: Any) -> None:
        """Writes what changed since the last flush, in one transaction."""
        with self._lock:
            if not self.dirty and self._sequence == self._flushed_sequence:
                return
            serializer = ODataJsonSerializer(ODataFormat.JSON_NO_METADATA)
            rows_upsert: list[tuple[str, str, str, str | None]] = []
            rows_delete: list[tuple[str, str]] = []
            for entity_set, key in sorted(self.dirty):
                entity = self.find(entity_set, key)
                if entity is None:
                    rows_delete.append((entity_set, key))
                    continue
                entity_type = edm.get_entity_set(entity_set).entity_type
                body = serializer.entity(edm, entity_type, entity, EntitySerializerOptions())
                rows_upsert.append((entity_set, key, body, entity.etag))
            # The log is in sequence order: what this flush writes is its tail, read from the
            # end so that a request costs what it changed, not the length of the whole log.
            changes = []
            for c in reversed(self.change_log):
                if c["seq"] <= self._flushed_sequence:
                    break
                changes.append((c["seq"], c["entity_set"], c["kind"], c["key"],
                                _relative_id(c["id"], c["entity_set"], c["key"])))
            changes.reverse()
            with self._db_lock:
                self.db.execute("BEGIN IMMEDIATE")
                try:
                    self.db.executemany("DELETE FROM entities WHERE entity_set = ? AND key = ?", rows_delete)
                    self.db.executemany(
                        "INSERT INTO entities (entity_set, key, body, etag) VALUES (?, ?, ?, ?) "
                        "ON CONFLICT (entity_set, key) DO UPDATE SET body = excluded.body, etag = excluded.etag",
                        rows_upsert,
                    )
                    # A rolled-back group may have written change entries past what is kept now.
                    self.db.execute("DELETE FROM changes WHERE seq > ?", (self._flushed_sequence,))
                    self.db.executemany("INSERT INTO changes VALUES (?, ?, ?, ?, ?)", changes)
                    self.db.executemany(
                        "INSERT INTO meta VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                        _counter_rows(self.counters.items()),
                    )
                    self.db.execute("COMMIT")
                except BaseException:
                    self.db.execute("ROLLBACK")
                    raise
            self.dirty.clear()
            self._flushed_sequence = self._sequence
        # The stored entities live as long as the server: kept out of Python's full cyclic
        # collections, which over tens of thousands of entities paused an answer by up to
        # 0.6 s (a database-backed service holds its data outside its heap).
        gc.freeze()


def _relative_id(entity_id: str | None, entity_set: str, key: str) -> str:
    if entity_id and f"/{entity_set}(" in entity_id:
        return entity_id[entity_id.rindex(f"/{entity_set}(") + 1:]
    return f"{entity_set}({key})"


def _counter_rows(counters: Iterable[tuple[str, int]]) -> list[tuple[str, str]]:
    return [(f"counter.{name}", str(value)) for name, value in counters]
