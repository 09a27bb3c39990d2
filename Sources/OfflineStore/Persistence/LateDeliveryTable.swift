import Foundation
import GRDB

/// The creates this store sent whose answer never came (`late_writes`), watched for a late
/// delivery (``LateDeliveryRule``), and the deletes queued to undo one (`late_write_undos`).
/// Every function runs inside the caller's transaction.
///
/// A row is kept for ``ObjectStore/Configuration/lateDeliveryWindow`` after the send was
/// given up on, and the table holds at most ``limit`` rows (the oldest go first), so its
/// size is bounded whatever the network does.
enum LateDeliveryTable {
    /// The most creates watched at once.
    static let limit = 1_000

    /// The tables, for the schema's migration.
    static let schema = """
        CREATE TABLE late_writes (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            collection TEXT NOT NULL,
            object_id TEXT NOT NULL,
            payload TEXT NOT NULL,
            sent_at REAL NOT NULL,
            deleted INTEGER NOT NULL DEFAULT 0,
            deleted_version TEXT
        );
        CREATE INDEX late_writes_object ON late_writes(collection, object_id);
        CREATE TABLE late_write_undos (
            seq INTEGER PRIMARY KEY NOT NULL,
            collection TEXT NOT NULL,
            object_id TEXT NOT NULL
        );
        """

    /// Watches creates whose answer was lost (`payload`: the serialized object sent).
    static func watch(_ creates: [(collection: String, id: String, payload: String)], at now: Date, in db: Database) throws {
        for create in creates {
            try db.execute(sql: "INSERT INTO late_writes(collection, object_id, payload, sent_at) VALUES (?, ?, ?, ?)",
                           arguments: [create.collection, create.id, create.payload, now.timeIntervalSince1970])
        }
    }

    /// Watches the creates still in flight, which a process that died had sent (called
    /// before they go back to pending).
    static func watchInFlight(at now: Date, in db: Database) throws {
        try db.execute(sql: """
            INSERT INTO late_writes(collection, object_id, payload, sent_at)
            SELECT collection, object_id, sent_data, ? FROM queue
            WHERE state = 'in-flight' AND kind = 'create' AND sent_data IS NOT NULL
            """, arguments: [now.timeIntervalSince1970])
    }

    /// Whether any create of the collection is watched.
    static func isWatching(_ collection: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM late_writes WHERE collection = ?)", arguments: [collection]) ?? false
    }

    /// The watched creates of a collection, oldest first, with whether each was answered since
    /// (its object has no create left in the queue).
    static func watched(in collection: String, in db: Database) throws -> [WatchedCreate] {
        try Row.fetchAll(db, sql: """
            SELECT object_id, payload, sent_at, deleted, deleted_version,
                   NOT EXISTS (SELECT 1 FROM queue q WHERE q.collection = l.collection AND q.object_id = l.object_id
                               AND q.kind = 'create') AS answered
            FROM late_writes l WHERE collection = ? ORDER BY seq
            """, arguments: [collection]).map { row in
            WatchedCreate(objectID: row["object_id"], payload: try JSONValue(parsing: row["payload"] as String),
                          sentAt: Date(timeIntervalSince1970: row["sent_at"]), deleted: row["deleted"],
                          deletedVersion: row["deleted_version"], isAnswered: row["answered"])
        }
    }

    /// The object was deleted on the server (this store's delete was acknowledged, or a
    /// tombstone was pulled): marks the creates sent before, with the first deletion's version.
    static func noteDeletion(collection: String, id: String, version: String?, in db: Database) throws {
        try db.execute(sql: """
            UPDATE late_writes SET deleted = 1, deleted_version = ? WHERE collection = ? AND object_id = ? AND deleted = 0
            """, arguments: [version, collection, id])
    }

    /// Points the watched creates of an object at its new (server-assigned) id.
    static func moveObject(collection: String, from oldID: String, to newID: String, in db: Database) throws {
        try db.execute(sql: "UPDATE late_writes SET object_id = ? WHERE collection = ? AND object_id = ?",
                       arguments: [newID, collection, oldID])
    }

    /// Remembers that queue entry `seq` (a delete) undoes a late delivery.
    static func markUndo(seq: Int64, collection: String, id: String, in db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO late_write_undos(seq, collection, object_id) VALUES (?, ?, ?)",
                       arguments: [seq, collection, id])
    }

    /// Whether queue entry `seq` is a delete that undoes a late delivery.
    static func isUndo(seq: Int64, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM late_write_undos WHERE seq = ?)", arguments: [seq]) ?? false
    }

    /// Forgets creates given up on before `now - window` and all but the newest ``limit``,
    /// and undo marks whose queue entry is gone.
    static func prune(now: Date, window: Duration, in db: Database) throws {
        try db.execute(sql: """
            DELETE FROM late_writes WHERE sent_at < ?;
            DELETE FROM late_writes WHERE seq <= (SELECT seq FROM late_writes ORDER BY seq DESC LIMIT 1 OFFSET ?);
            DELETE FROM late_write_undos WHERE NOT EXISTS (SELECT 1 FROM queue q WHERE q.seq = late_write_undos.seq);
            """, arguments: [now.timeIntervalSince1970 - window.timeInterval, limit])
    }

    /// Forgets everything (a reset that erases the store's data).
    static func removeAll(in db: Database) throws {
        try db.execute(sql: "DELETE FROM late_writes; DELETE FROM late_write_undos;")
    }
}
