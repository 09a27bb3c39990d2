import GRDB

/// After a complete pull from the beginning on a backend that sweeps deletions: inside one
/// transaction, remove the synced objects whose records the pull did not list and that have
/// nothing pending (``DeletionSweepRule``); observers see them go with reason `swept`.
enum DeletionSweep {
    /// `listed`: the ids the pull listed (with their versions).
    /// - Returns: how many local copies were removed.
    static func apply(listed: [String: String], collection: String, in db: Database, reasons: ChangeReasons) throws -> Int {
        let unlisted = try ObjectRow.withServerCopy(db, in: collection).filter { listed[$0.id] == nil }
        return try SyncEngine.removeCopies(unlisted, collection: collection, reason: .swept, in: db, reasons: reasons) { row, queued in
            DeletionSweepRule.fate(of: row, queued: queued, listed: false)
        }
    }
}
