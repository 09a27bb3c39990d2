import GRDB

/// The resets (Docs/Auth.md, "Resets"; the table on ``ObjectStore/resetSyncState(keepingPendingEdits:)``):
/// each waits for a running flush or refresh of the store file (the sync lock), and its
/// local part is one transaction, so it happens entirely or not at all.
extension SyncEngine {
    /// ``ObjectStore/resetSyncState(keepingPendingEdits:)``: synced objects and pull
    /// cursors of the synced collections go, and the last sync time.
    func resetSyncState(keepingPendingEdits: Bool) async throws {
        let synced = collections.all.filter { !$0.isLocalOnly }.map(\.name)
        try await reset("resetting the sync state") { db in
            for name in synced { try ObjectRow.dropCollection(db, name, keepingPendingEdits: keepingPendingEdits) }
            try MetaTable.setValue(nil, forKey: MetaTable.lastSyncKey, in: db)
        }
    }

    /// ``ObjectStore/resetAll()``: every object, the whole queue, the cursors and the last sync time.
    func resetAll() async throws {
        try await reset("resetting the store") { db in
            try ObjectRow.deleteAll(db)
            try LateDeliveryTable.removeAll(in: db)
            try CollectionsTable.clearCursors(in: db)
            try MetaTable.setValue(nil, forKey: MetaTable.lastSyncKey, in: db)
        }
    }

    /// ``ObjectStore/resetCollection(_:keepingPendingEdits:)``.
    func resetCollection(_ name: String, keepingPendingEdits: Bool) async throws {
        guard !(try descriptor(of: name)).isLocalOnly else {
            throw OfflineStoreError(.invalidOperation, "collection \(name) is local-only: it has no server data to reset")
        }
        try await reset("resetting \(name)") { db in
            try ObjectRow.dropCollection(db, name, keepingPendingEdits: keepingPendingEdits)
        }
    }

    /// The local part of ``ObjectStore/logout(pendingEdits:)``, under the sync lock (a running
    /// sync finishes first): refuses while edits are queued, or drops every queued edit and
    /// brings each edited object back to its server copy, in one transaction (``LogoutRule``).
    ///
    /// - Throws: ``OfflineStoreError/Code/pendingEdits`` (nothing changes), or a storage error.
    func settleBeforeLogout(_ choice: PendingEditsAtLogout) async throws {
        try await withSyncLock {
            let pending = try read("counting the pending edits") { db in try QueueTable.count(db) }
            switch LogoutRule.decide(choice, pending: pending) {
            case .signOut: return
            case .refuse(let pending):
                throw OfflineStoreError(.pendingEdits, "\(pending) edit(s) are not sent yet: sync first, or log out "
                    + "keeping them (.keep) or discarding them (.discard); still signed in")
            case .discardThenSignOut:
                try local.write("discarding the pending edits before logging out") { db in
                    var objects = Set<ObjectKey>()
                    for entry in try QueueTable.entries(db, .matching(collection: nil, id: nil))
                    where objects.insert(ObjectKey(collection: entry.collection, id: entry.objectID)).inserted {
                        try FailedEntryWrites.rollBack(db, collection: entry.collection, id: entry.objectID)
                    }
                    try ObjectKeyedTables.removeOrphans(db)
                }
            }
        }
        _ = try? local.sweepBlobs()
    }

    /// ``ObjectStore/resyncFromServer(keepingPendingEdits:)``: checks that the server still
    /// has what this store synced, resets the sync state, then refreshes everything.
    func resyncFromServer(keepingPendingEdits: Bool) async throws -> SyncReport {
        try await requireServerData()
        try await resetSyncState(keepingPendingEdits: keepingPendingEdits)
        return try await refresh(collections: nil, full: true)
    }

    /// Runs a reset's writes under the sync lock in one transaction, removes the rows left
    /// keyed by objects that are gone, then sweeps the blob files no row names any more.
    private func reset(_ action: String, _ writes: (Database) throws -> Void) async throws {
        try await withSyncLock {
            try local.write(action) { db in
                try writes(db)
                try ObjectKeyedTables.removeOrphans(db)
            }
        }
        _ = try? local.sweepBlobs()
    }

    /// Before a client reset drops anything: every synced collection where this store holds
    /// objects the server had must still have records on the server.
    ///
    /// - Throws: ``OfflineStoreError/Code/serverLostData`` (nothing dropped), `configuration`
    ///   without a backend, or the pull's error.
    private func requireServerData() async throws {
        let backend = try connected("reset against")
        for collection in collections.all where !collection.isLocalOnly {
            do {
                try await backend.prepare(collection: collection.name)
                let first = try await backend.pull(PullRequest(collection: collection.name))
                if first.changes.isEmpty, first.next == nil { try checkServerKeptData(of: collection.name) }
            } catch {
                throw OfflineStoreError.sync(error)
            }
        }
    }
}
