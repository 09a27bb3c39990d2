import Foundation

/// What a sync transaction met that the app must hear of, kept until the transaction
/// committed: decide, write, then tell the app — app code never runs while the writer is held.
struct AppNotices: Sendable {
    /// A conflict left for the collection's custom resolver.
    struct CustomConflict: Sendable {
        let conflict: Conflict
        /// The object's local revision when the conflict was met: the resolver's answer
        /// applies only if no edit came meanwhile.
        let localRev: Int64
        let resolver: ConflictResolver
    }

    /// Sync events (`conflict`, `failedEntry`), in the order met.
    var events: [SyncEvent] = []
    /// Entries the server rejected: the `failedEntry` event and the failed-entry handler.
    var rejected: [Int64] = []
    /// Conflicts the custom resolver decides.
    var customConflicts: [CustomConflict] = []
}

extension SyncEngine {
    /// Tells the app what a committed transaction met: events in order, then the
    /// failed-entry handler and the custom resolver, each decision written in its own
    /// transaction (and only if the object did not change meanwhile).
    func deliver(_ notices: AppNotices, report: inout SyncReport) throws {
        for event in notices.events { emit(event) }
        for seq in notices.rejected { try handleRejection(of: seq) }
        for pending in notices.customConflicts where try resolveWithCustomResolver(pending) {
            report.conflictsResolved += 1
        }
    }

    /// Asks the collection's resolver about a conflict the policy preserved for it, then
    /// applies its answer unless the object moved on (resolved, edited, or a newer server
    /// version came): then the answer no longer fits and nothing changes.
    /// - Returns: whether the conflict was resolved.
    private func resolveWithCustomResolver(_ pending: AppNotices.CustomConflict) throws -> Bool {
        let conflict = pending.conflict
        let resolution = pending.resolver(conflict)
        if resolution == .preserve { return false }
        return try write("resolving \(conflict.collection)/\(conflict.id)") { db in
            guard let row = try ObjectRow.fetch(db, collection: conflict.collection, id: conflict.id),
                  row.state == .conflicted, row.serverVersion == conflict.serverVersion, row.localRev == pending.localRev
            else { return false }
            return try settle(row, with: resolution, in: db) == .resolved
        }
    }

    /// Sends the `failedEntry` event's handler decision for an entry the server rejected:
    /// the handler runs outside any transaction; its action is written in its own.
    private func handleRejection(of seq: Int64) throws {
        guard let handler = configuration.failedEntryHandler else {
            if let entry = try read("reading a failed entry", { db in try QueueTable.entry(db, seq: seq) }) { emit(.failedEntry(entry)) }
            return
        }
        guard let (entry, object) = try read("reading a failed entry", { db -> (QueueEntry, StoredObject?)? in
            guard let entry = try QueueTable.entry(db, seq: seq), entry.state == .failed else { return nil }
            return (entry, try ObjectRow.fetch(db, collection: entry.collection, id: entry.objectID)?.publicObject)
        }) else { return }
        emit(.failedEntry(entry))
        guard let action = handler(entry, object) else { return }
        guard entry.allowedActions.contains(action) else {
            configuration.logger.warning("the failed-entry handler chose an action that does not apply; entry kept",
                                         metadata: ["action": "\(action.rawValue)", "kind": "\(entry.kind.rawValue)"])
            return
        }
        do {
            try write("\(action.rawValue) of \(entry.collection)/\(entry.objectID)") { db in
                // Only the entry the handler saw: another process may have acted meanwhile.
                guard try QueueTable.entry(db, seq: seq)?.state == .failed else { return }
                try FailedEntryWrites.carryOut(action, collection: entry.collection, id: entry.objectID, in: db)
            }
        } catch let error as OfflineStoreError where error.code == .invalidOperation || error.code == .notFound {
            configuration.logger.warning("the failed-entry handler's action could not apply; entry kept",
                                         metadata: ["action": "\(action.rawValue)", "reason": "\(error.message)"])
            return
        }
        if action == .retry { deferredRetries.withLock { _ = $0.insert(seq) } }
    }
}
