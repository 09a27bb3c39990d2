import Foundation

/// Sharing and lost access (Docs/Auth.md): what the user may do in each collection, as its
/// preparation finds it, recorded for the edit path; and the refusals that stop one
/// collection, not the run (``FailureRule/isCollectionRefusal(_:)``).
extension SyncEngine {
    /// Prepares a collection on the backend (``Backend/prepareAccess(collection:)``) and
    /// records the access it found when it changed, so that edits to a read-only collection
    /// are refused at edit time and allowed again once write access returns.
    func prepareRecordingAccess(_ collection: String) async throws {
        let access = try await backend.prepareAccess(collection: collection)
        guard collections.isReadOnly(collection) != (access == .readOnly) else { return }
        try write("recording the access to \(collection)") { db in
            try CollectionsTable.setReadOnly(access == .readOnly, of: collection, in: db)
        }
        collections.setAccess(access, of: collection)
    }

    /// Names a collection the server refused in the report and tells the app (``SyncEvent/refused(_:)``).
    func refuse(_ collection: String, _ direction: SyncProgress.Direction, _ error: OfflineStoreError,
                report: inout SyncReport) {
        let before = report.refused.count
        report.refuse(collection, direction, error)
        if report.refused.count > before, let refusal = report.refused.last { emit(.refused(refusal)) }
    }

    /// A collection's pull was refused (``ReadAccessRule``): names it in the report, and when
    /// the store had read it before, follows its ``ReadAccessLossPolicy`` — decide, write
    /// (one transaction), then tell the app (``SyncEvent/readAccessLost(_:)``, then a
    /// ``SyncEvent/failedEntry(_:)`` and the failed-entry handler for each entry a purge failed,
    /// as for a refused push).
    func loseReadAccess(_ collection: CollectionDescriptor, _ error: OfflineStoreError, report: inout SyncReport) throws {
        let name = collection.name
        let (wasRead, told) = try read("reading the state of \(name)") { db in
            (try CollectionsTable.cursor(of: name, in: db) != nil || ObjectRow.anySynced(db, in: name),
             try CollectionsTable.readAccessLost(of: name, in: db))
        }
        let decision = ReadAccessRule.decide(error, wasRead: wasRead, told: told, policy: collection.readAccessLoss)
        refuse(name, .pull, error, report: &report)
        var removed = 0, failed: [Int64] = []
        switch decision {
        case .stopRun: throw error
        case .refuse: return
        case .keep:
            // Told once: the next refusals only name the collection, until a pull succeeds.
            try write("recording that read access to \(name) was withdrawn") { db in
                try CollectionsTable.setReadAccessLost(true, of: name, in: db)
            }
        case .purge:
            let reasons = ChangeReasons()
            (removed, failed) = try write("purging \(name) after read access was withdrawn", reasons: reasons) { db in
                let failed = try QueueTable.forbidPending(db, collection: name, message:
                    "read access to \(name) was withdrawn (HTTP \(error.status.map(String.init) ?? "403")); kept as a failed entry")
                let removed = try SyncEngine.removeCopies(try ObjectRow.withServerCopy(db, in: name), collection: name,
                                                          reason: .readAccessLost, in: db, reasons: reasons) { row, queued in
                    ScopeRule.departure(of: row, queued: queued)
                }
                try CollectionsTable.setCursor(nil, of: name, in: db)
                try CollectionsTable.setReadAccessLost(true, of: name, in: db)
                return (removed, failed)
            }
        }
        emit(.readAccessLost(ReadAccessLoss(collection: name, policy: collection.readAccessLoss, status: error.status,
                                            message: error.message, removedObjects: removed, failedEntries: failed.count)))
        var notices = AppNotices()
        notices.rejected = failed
        try deliver(notices, report: &report)
    }
}
