import Foundation
import GRDB

/// The object change log on the writer connection (see ``ObjectStore/changes(in:)``).
extension LocalStore {
    /// Creates the temporary change log and its triggers on the writer connection, once.
    func installChangeLog() {
        guard !observers.changeLogInstalled.withLock({ $0 }) else { return }
        do {
            // The flag is set on the writer, in the transaction that creates the log: a write
            // that sees it set finds the table (writes drain the log on the same connection).
            try writer.write { db in
                guard !observers.changeLogInstalled.withLock({ $0 }) else { return }
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
                observers.changeLogInstalled.withLock { $0 = true }
            }
        } catch {
            observers.changeLogInstalled.withLock { $0 = false }
            configuration.logger.error("object change observation could not start", metadata: ["error": "\(error)"])
        }
    }

    /// Reads and empties the change log inside the write's transaction; tells GRDB's
    /// observations that `objects` changed (it cannot see changes of WITHOUT ROWID tables).
    func drainChangeLog(_ db: Database, origin: ChangeOrigin, reasons: ChangeReasons? = nil) throws -> [ObjectChange] {
        guard observers.changeLogInstalled.withLock({ $0 }) else { return [] }
        let rows = try Row.fetchAll(db, sql: "SELECT collection, id, kind FROM temp.object_changes ORDER BY rowid")
        guard !rows.isEmpty else { return [] }
        try db.execute(sql: "DELETE FROM temp.object_changes")
        try db.notifyChanges(in: Table("objects"))
        return rows.compactMap { row in
            guard let kind = ObjectChange.Kind(rawValue: row["kind"]) else { return nil }   // "touched"
            let collection: String = row["collection"], id: String = row["id"]
            return ObjectChange(collection: collection, id: id, kind: kind, origin: origin,
                                reason: reasons?.byObject[ObjectKey(collection: collection, id: id)])
        }
    }

    /// Sends committed changes to the subscribers.
    func publish(_ changes: [ObjectChange]) {
        guard !changes.isEmpty, observers.changes.hasSubscribers else { return }
        for change in changes { observers.changes.send(change) }
    }
}
