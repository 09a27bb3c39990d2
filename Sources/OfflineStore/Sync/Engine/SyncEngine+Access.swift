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
            try CollectionsTable.setAccess(access, of: collection, in: db)
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
}
