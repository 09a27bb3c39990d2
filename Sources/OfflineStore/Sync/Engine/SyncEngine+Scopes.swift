import GRDB

/// A collection's sync scope changed (``ObjectStore/register(_:)``): inside the registering
/// transaction, record what the next refresh must pull once (``ScopeRule/catchUp(from:to:)``)
/// and remove the local copies the new scope does not hold (``ScopeRule/departure(of:queued:)``).
enum ScopeChange {
    /// - Returns: how many local copies were removed.
    @discardableResult
    static func apply(from old: ServerQuery?, to new: ServerQuery?, collection: String, in db: Database,
                      reasons: ChangeReasons) throws -> Int {
        var catchUp = ScopeRule.catchUp(from: old, to: new)
        // A catch-up still pending was computed for the scope in between: only a full pull covers both.
        if try CollectionsTable.scopeCatchUp(of: collection, in: db) != nil { catchUp = .fullPull }
        try CollectionsTable.setScopeCatchUp(catchUp, of: collection, in: db)
        guard let new else { return 0 }
        var removed = 0
        for row in try ObjectRow.withServerCopy(db, in: collection) where !ScopeRule.contains(new, row.persistent) {
            let queued = try QueueTable.hasEntries(db, collection: collection, id: row.id)
            guard ScopeRule.departure(of: row, queued: queued) == .remove else { continue }
            try KeyedRows.removeObject(db, collection: collection, id: row.id)
            reasons.byObject[ObjectKey(collection: collection, id: row.id)] = .leftScope
            removed += 1
        }
        return removed
    }
}
