import GRDB

/// Every table keyed by an object, besides `objects` itself: `queue`, `object_usage`,
/// `blobs` and `id_aliases`. Removing or re-keying an object goes through here, so no row
/// of a gone object is left behind. Every function runs inside the caller's transaction.
enum ObjectKeyedTables {
    /// Renames an object's row (its copies are saved by the caller).
    static func renameObject(_ db: Database, collection: String, from oldID: String, to newID: String) throws {
        try db.execute(sql: "UPDATE objects SET id = ? WHERE collection = ? AND id = ?", arguments: [newID, collection, oldID])
    }

    /// Points the usage and blob rows of `oldID` at `newID`. `replacingTarget`: rows the
    /// target already has give way; otherwise they stay and the moved object's clashing rows go.
    static func moveUsageAndBlobs(_ db: Database, collection: String, from oldID: String, to newID: String,
                                  replacingTarget: Bool) throws {
        for (table, column) in [("object_usage", "id"), ("blobs", "object_id")] {
            if replacingTarget {
                try db.execute(sql: "DELETE FROM \(table) WHERE collection = ? AND \(column) = ?", arguments: [collection, newID])
            }
            try db.execute(sql: "UPDATE OR IGNORE \(table) SET \(column) = ? WHERE collection = ? AND \(column) = ?",
                           arguments: [newID, collection, oldID])
            try db.execute(sql: "DELETE FROM \(table) WHERE collection = ? AND \(column) = ?", arguments: [collection, oldID])
        }
    }

    /// Remembers that the object created under `temporaryID` is `serverID` on the server.
    static func recordAlias(_ db: Database, collection: String, temporaryID: String, serverID: String) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO id_aliases(collection, temporary_id, server_id) VALUES (?, ?, ?)",
                       arguments: [collection, temporaryID, serverID])
    }

    /// The server id of an object created under `id`, if it was re-keyed.
    static func serverID(_ db: Database, for id: String, in collection: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT server_id FROM id_aliases WHERE collection = ? AND temporary_id = ?",
                            arguments: [collection, id])
    }

    /// The objects of a collection whose copies contain `text` (candidates for a reference rewrite).
    static func objects(_ db: Database, in collection: String, containing text: String) throws -> [ObjectRow] {
        try Row.fetchAll(db, sql: """
            SELECT \(ObjectRow.columns) FROM objects WHERE collection = ?
            AND (instr(local, ?) > 0 OR instr(persistent, ?) > 0 OR instr(base, ?) > 0)
            """, arguments: [collection, text, text, text]).map(ObjectRow.init(row:))
    }

    /// Removes an object and everything keyed by it: usage, blob rows (their files go with
    /// the next sweep) and the id aliases that point at it. Its queue entries must be gone.
    static func removeObject(_ db: Database, collection: String, id: String) throws {
        try db.execute(sql: """
            DELETE FROM objects WHERE collection = ? AND id = ?;
            DELETE FROM object_usage WHERE collection = ? AND id = ?;
            DELETE FROM blobs WHERE collection = ? AND object_id = ?;
            DELETE FROM id_aliases WHERE collection = ? AND server_id = ?;
            """, arguments: [collection, id, collection, id, collection, id, collection, id])
    }

    /// Removes the rows every keyed table holds for objects that no longer exist: usage,
    /// blob rows (their files go with the next sweep) and id aliases whose server id is gone,
    /// and queue entries of missing objects. Called by the resets.
    static func removeOrphans(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM queue WHERE NOT EXISTS (SELECT 1 FROM objects o WHERE o.collection = queue.collection AND o.id = queue.object_id);
            DELETE FROM object_usage WHERE NOT EXISTS (SELECT 1 FROM objects o WHERE o.collection = object_usage.collection AND o.id = object_usage.id);
            DELETE FROM blobs WHERE NOT EXISTS (SELECT 1 FROM objects o WHERE o.collection = blobs.collection AND o.id = blobs.object_id);
            DELETE FROM id_aliases WHERE NOT EXISTS (SELECT 1 FROM objects o WHERE o.collection = id_aliases.collection AND o.id = id_aliases.server_id);
            """)
    }
}
