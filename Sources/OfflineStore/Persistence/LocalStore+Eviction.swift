import GRDB

extension LocalStore {
    /// How many eviction candidates one query reads; the size is measured after each removal.
    static let evictionBatch = 64

    /// ``ObjectStore/evict(toFit:)``: evicts in a transaction of its own, then removes the
    /// blob files no row names any more; returns how many objects were removed.
    func evict(toFit bytes: Int64) throws -> Int {
        let evicted = try write("evicting unused objects") { db in try evictUnused(db, toFit: bytes, protecting: .none) }
        try sweepBlobs()
        return evicted
    }

    /// Evicts in the current transaction; see ``evict(toFit:)``.
    @discardableResult
    func evictUnused(_ db: Database, toFit bytes: Int64, protecting guarded: EvictionGuard) throws -> Int {
        let localOnly = collections.all.filter(\.isLocalOnly).map(\.name)
        let placeholders = localOnly.map { _ in "?" }.joined(separator: ",")
        let sql = """
            SELECT o.collection, o.id FROM objects o
            LEFT JOIN object_usage u ON u.collection = o.collection AND u.id = o.id
            WHERE o.dirty = 0 AND o.state = 'synced' AND COALESCE(u.pinned, 0) = 0
              AND NOT EXISTS (SELECT 1 FROM queue q WHERE q.collection = o.collection AND q.object_id = o.id)
              AND NOT EXISTS (SELECT 1 FROM blobs b WHERE b.collection = o.collection AND b.object_id = o.id
                              AND b.state != 'synced')
              \(localOnly.isEmpty ? "" : "AND o.collection NOT IN (\(placeholders))")
            ORDER BY COALESCE(u.used_at, 0), o.collection, o.id
            LIMIT ?
            """
        var evicted = 0
        while try StoreSize.used(db) > bytes {
            let batch = try Row.fetchAll(db, sql: sql, arguments: StatementArguments(localOnly + [Self.evictionBatch + guarded.ids.count]))
                .map { (collection: $0[0] as String, id: $0[1] as String) }
                .filter { !($0.collection == guarded.collection && guarded.ids.contains($0.id)) }
                .prefix(Self.evictionBatch)
            if batch.isEmpty { break }
            for object in batch where try StoreSize.used(db) > bytes {
                try db.execute(sql: "DELETE FROM objects WHERE collection = ? AND id = ?", arguments: [object.collection, object.id])
                try db.execute(sql: "DELETE FROM object_usage WHERE collection = ? AND id = ?", arguments: [object.collection, object.id])
                try BlobTable.forget(db, collection: object.collection, id: object.id)
                evicted += 1
            }
        }
        return evicted
    }

    /// Records that objects were used now (for LRU eviction).
    func recordUse(_ db: Database, collection: String, ids: some Sequence<String>) throws {
        let now = configuration.now().timeIntervalSince1970
        let statement = try db.cachedStatement(sql: """
            INSERT INTO object_usage(collection, id, used_at) VALUES (?, ?, ?)
            ON CONFLICT(collection, id) DO UPDATE SET used_at = excluded.used_at
            """)
        for id in ids { try statement.execute(arguments: [collection, id, now]) }
    }
}
