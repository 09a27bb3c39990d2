import Foundation
import GRDB

/// Object changes: an `AsyncSequence` of created / updated / deleted ids per collection,
/// with their origin (RhoConnect `setObjectNotification`).
///
/// ```swift
/// for await change in store.changes(in: "todos") {
///     print(change.kind, change.id, change.origin)   // e.g. updated a server
/// }
/// ```
///
/// A change is what the app sees: the object's value (local copy, else persistent copy)
/// appeared, changed or disappeared. A server answer that confirms a local edit without
/// changing it is no change. Changes are sent after their transaction committed, in
/// commit order.
///
/// How: from the first observer on, temporary triggers on the writer connection log every
/// change of `objects` into a temporary table (changes of state or copies that leave the
/// value as it was are logged as "touched": they wake query and flag observations but are
/// not object changes), which each write drains before it
/// commits (so a rolled-back write reports nothing). Until the first observer there are no
/// triggers and no cost; once installed they stay until the store closes.
extension ObjectStore {
    /// The changes of one collection (or of every collection) from now on; ends when the
    /// store closes or the consumer stops.
    public func changes(in collection: String? = nil) -> AsyncStream<ObjectChange> {
        let stream = runtime.changes.subscribe { change in collection == nil || change.collection == collection }
        installChangeLog()
        return stream
    }

    /// Creates the temporary change log and its triggers on the writer connection, once.
    func installChangeLog() {
        let needed = runtime.changeLogInstalled.withLock { installed in
            defer { installed = true }
            return !installed
        }
        guard needed else { return }
        do {
            try pool.write { db in
                try db.execute(sql: """
                    CREATE TEMP TABLE IF NOT EXISTS object_changes(collection TEXT NOT NULL, id TEXT NOT NULL, kind TEXT NOT NULL);
                    CREATE TEMP TRIGGER IF NOT EXISTS object_changes_insert AFTER INSERT ON main.objects
                    WHEN NEW.doc IS NOT NULL BEGIN
                        INSERT INTO object_changes VALUES (NEW.collection, NEW.id, 'created');
                    END;
                    CREATE TEMP TRIGGER IF NOT EXISTS object_changes_update AFTER UPDATE ON main.objects BEGIN
                        INSERT INTO object_changes VALUES (NEW.collection, NEW.id,
                            CASE WHEN OLD.doc IS NEW.doc THEN 'touched' WHEN OLD.doc IS NULL THEN 'created'
                            WHEN NEW.doc IS NULL THEN 'deleted' ELSE 'updated' END);
                    END;
                    CREATE TEMP TRIGGER IF NOT EXISTS object_changes_delete AFTER DELETE ON main.objects
                    WHEN OLD.doc IS NOT NULL BEGIN
                        INSERT INTO object_changes VALUES (OLD.collection, OLD.id, 'deleted');
                    END;
                    """)
                writerStatements.removeAll()  // the schema changed: prepare them again, as GRDB does its cache
            }
        } catch {
            runtime.changeLogInstalled.withLock { $0 = false }
            configuration.logger.error("object change observation could not start", metadata: ["error": "\(error)"])
        }
    }

    /// Reads and empties the change log inside the write's transaction; tells GRDB's
    /// observations that `objects` changed (it cannot see changes of WITHOUT ROWID tables).
    func drainChangeLog(_ db: Database) throws -> [ObjectChange] {
        guard runtime.changeLogInstalled.withLock({ $0 }) else { return [] }
        let rows = try Row.fetchAll(db, sql: "SELECT collection, id, kind FROM temp.object_changes ORDER BY rowid")
        guard !rows.isEmpty else { return [] }
        try db.execute(sql: "DELETE FROM temp.object_changes")
        try db.notifyChanges(in: Table("objects"))
        let origin = ObjectStore.changeOrigin
        return rows.compactMap { row in
            guard let kind = ObjectChange.Kind(rawValue: row["kind"]) else { return nil }   // "touched"
            return ObjectChange(collection: row["collection"], id: row["id"], kind: kind, origin: origin)
        }
    }

    /// Sends committed changes to the subscribers.
    func publish(_ changes: [ObjectChange]) {
        guard !changes.isEmpty, runtime.changes.hasSubscribers else { return }
        for change in changes { runtime.changes.send(change) }
    }
}
