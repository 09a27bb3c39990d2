import GRDB

/// A compiled query over one collection's objects: the SQL text and arguments that
/// ``QueryBuilder`` makes from a ``Condition`` and sort keys, run by the functions below.
struct ObjectQuery: @unchecked Sendable {
    // @unchecked: StatementArguments holds only database values (text, numbers, blobs, null).
    let sql: String
    let arguments: StatementArguments

    /// The objects matching `condition` (and `state`), sorted and paged; locally deleted
    /// objects only when `state` is `.deleted`.
    static func select(_ collection: CollectionDescriptor, where condition: Condition?, state: SyncState?,
                       orderBy: [SortKey], limit: Int?, offset: Int) throws -> ObjectQuery {
        var builder = QueryBuilder(collection: collection)
        builder.arguments += [collection.name]
        var sql = "SELECT \(ObjectRow.columns) FROM objects\(builder.indexHint(for: condition)) WHERE collection = ?"
        if let state {
            sql += " AND state = ?"
            builder.arguments += [state.rawValue]
        }
        if state != .deleted { sql += " AND doc IS NOT NULL" }
        if let condition { sql += " AND " + (try builder.sql(for: condition)) }
        sql += " ORDER BY " + (try builder.orderBy(orderBy))
        sql += " LIMIT ? OFFSET ?"
        builder.arguments += [limit ?? -1, max(0, offset)]
        return ObjectQuery(sql: sql, arguments: builder.arguments)
    }

    /// How many objects match `condition` (locally deleted ones excluded).
    static func count(_ collection: CollectionDescriptor, where condition: Condition?) throws -> ObjectQuery {
        var builder = QueryBuilder(collection: collection)
        builder.arguments += [collection.name]
        var sql = "SELECT count(*) FROM objects\(builder.indexHint(for: condition)) WHERE collection = ? AND doc IS NOT NULL"
        if let condition { sql += " AND " + (try builder.sql(for: condition)) }
        return ObjectQuery(sql: sql, arguments: builder.arguments)
    }

    /// The rows a ``select(_:where:state:orderBy:limit:offset:)`` query matches.
    func rows(_ db: Database) throws -> [ObjectRow] {
        try Row.fetchAll(db, sql: sql, arguments: arguments).map(ObjectRow.init(row:))
    }

    /// The number a ``count(_:where:)`` query answers.
    func number(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0
    }
}

extension ObjectRow {
    /// How many objects of a collection are in each sync state.
    static func stateCounts(_ db: Database, in collection: String) throws -> [SyncState: Int] {
        let rows = try Row.fetchAll(db, sql: "SELECT state, count(*) AS n FROM objects WHERE collection = ? GROUP BY state",
                                    arguments: [collection])
        var counts: [SyncState: Int] = [:]
        for row in rows {
            let stateName: String = row["state"]
            guard let state = SyncState(rawValue: stateName) else {
                throw OfflineStoreError(.corrupted, "objects of \(collection) have an unknown state '\(stateName)'")
            }
            counts[state] = row["n"]
        }
        return counts
    }
}

extension QueueTable {
    /// Whether a collection (or one of its objects) has queue entries.
    static func hasEntries(_ db: Database, collection: String, id: String? = nil) throws -> Bool {
        if let id {
            return try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM queue WHERE collection = ? AND object_id = ?)",
                                     arguments: [collection, id]) ?? false
        }
        return try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM queue WHERE collection = ?)", arguments: [collection]) ?? false
    }
}

extension ObjectKeyedTables {
    /// Whether the object is pinned against eviction.
    static func isPinned(_ db: Database, collection: String, id: String) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT pinned FROM object_usage WHERE collection = ? AND id = ?", arguments: [collection, id]) ?? false
    }

    /// Pins or unpins the object.
    static func setPinned(_ db: Database, collection: String, id: String, _ pinned: Bool) throws {
        try db.execute(sql: """
            INSERT INTO object_usage(collection, id, pinned) VALUES (?, ?, ?)
            ON CONFLICT(collection, id) DO UPDATE SET pinned = excluded.pinned
            """, arguments: [collection, id, pinned])
    }
}

extension BlobTable {
    /// A failed upload becomes pending again; false when the blob had not failed.
    static func retryFailedUpload(_ db: Database, collection: String, id: String, field: String) throws -> Bool {
        try db.execute(sql: """
            UPDATE blobs SET state = 'pending', status = NULL WHERE collection = ? AND object_id = ? AND field = ? AND state = 'failed'
            """, arguments: [collection, id, field])
        return db.changesCount > 0
    }
}
