import GRDB

/// The app's actions on a failed entry, inside the caller's transaction (used by the public
/// actions and by the flush's failed-entry handler).
enum FailedEntryWrites {
    /// Carries out the action, inside the caller's transaction, after checking it is allowed.
    static func carryOut(_ action: FailedEntryAction, collection: String, id: String, in db: Database) throws {
        guard let row = try ObjectRow.fetch(db, collection: collection, id: id) else {
            throw OfflineStoreError(.notFound, "object \(collection)/\(id) does not exist")
        }
        let entries = try QueueTable.entries(db, collection: collection, id: id)
        guard let failed = entries.first(where: { QueueTransition.retry.sources.contains($0.state) }) else {
            throw OfflineStoreError(.invalidOperation,
                "\(collection)/\(id) has no failed entry to act on (it is \(row.state.rawValue))")
        }
        if entries.contains(where: { !QueueTransition.drop.sources.contains($0.state) }) {
            throw OfflineStoreError(.invalidOperation, "object \(collection)/\(id) is being sent; try again after the flush")
        }
        guard failed.allowedActions.contains(action) else {
            let instead = failed.kind == .create
                ? "the server never had it: discard it or retry"
                : "the server has it: roll it back or retry"
            throw OfflineStoreError(.invalidOperation,
                "\(action.rawValue) does not apply to the failed \(failed.kind.rawValue) of \(collection)/\(id); \(instead)")
        }
        switch action {
        case .retry:
            try QueueTable.retry(failed.seq, in: db)
            guard row.state == .failed else { return }
            var row = row
            row.state = .synced
            row.deriveState()
            try row.save(db)
        case .rollback, .discard:
            try rollBack(db, collection: collection, id: id)
        }
    }

    /// Drops every queued edit of an object and restores its persistent copy.
    static func rollBack(_ db: Database, collection: String, id: String) throws {
        let entries = try QueueTable.entries(db, collection: collection, id: id)
        if entries.contains(where: { !QueueTransition.drop.sources.contains($0.state) }) {
            throw OfflineStoreError(.invalidOperation, "object \(collection)/\(id) is being sent; try again after the flush")
        }
        try QueueTable.removeAll(db, collection: collection, id: id)
        guard var row = try ObjectRow.fetch(db, collection: collection, id: id) else { return }
        if row.persistent == nil {
            try row.delete(db)
            return
        }
        row.state = .synced
        row.clearLocalEdit()
        try row.save(db)
    }
}
