import GRDB

/// After a complete pull from the beginning on a backend that sweeps deletions: inside one
/// transaction, remove the synced objects whose records the pull did not list and that have
/// nothing pending (``DeletionSweepRule``); observers see them go with reason `swept`.
enum DeletionSweep {
    /// - Returns: how many local copies were removed.
    static func apply(listed: Set<String>, collection: String, in db: Database, reasons: ChangeReasons) throws -> Int {
        var removed = 0
        for row in try ObjectRow.withServerCopy(db, in: collection) where !listed.contains(row.id) {
            let queued = try QueueTable.hasEntries(db, collection: collection, id: row.id)
            guard DeletionSweepRule.fate(of: row, queued: queued, listed: false) == .remove else { continue }
            try KeyedRows.removeObject(db, collection: collection, id: row.id)
            reasons.byObject[ObjectKey(collection: collection, id: row.id)] = .swept
            removed += 1
        }
        return removed
    }
}
