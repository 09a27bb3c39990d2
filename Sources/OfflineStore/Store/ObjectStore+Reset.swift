/// The resets, from the smallest to the largest (see Docs/Auth.md, "Resets"):
///
/// | | ``ObjectStore/resetSyncState(keepingPendingEdits:)`` | ``ObjectStore/resyncFromServer(keepingPendingEdits:)`` | ``ObjectStore/resetAll()`` |
/// |---|---|---|---|
/// | synced objects of synced collections | removed | removed, then read again | removed |
/// | objects with local edits, conflicts or failed entries | kept (unless `keepingPendingEdits: false`) | kept (same) | removed |
/// | the queue | kept (same) | kept (same), sent by the next flush | emptied |
/// | pull cursors, last sync time | cleared | cleared, then a full refresh | cleared |
/// | local-only collections' objects | kept | kept | removed |
/// | registered collections, app metadata | kept | kept | kept |
///
/// ``ObjectStore/resetCollection(_:keepingPendingEdits:)`` does the first for one collection.
/// Each waits for a running flush or refresh of this store to finish, and its local part
/// runs in one transaction: it happens entirely or not at all.
extension ObjectStore {
    /// Forgets what the store knows about the server, without the network: synced objects
    /// and pull cursors go, so the next refresh reads each collection in full.
    ///
    /// Objects with local edits, conflicts or failed entries, the whole queue and local-only
    /// collections stay, unless `keepingPendingEdits` is false: then every object of the
    /// synced collections and their queue entries go too (unsent edits are lost).
    ///
    /// ```swift
    /// try await store.resetSyncState()
    /// try await store.refresh()      // reads everything again
    /// ```
    /// - Throws: a storage error; nothing changes then.
    public func resetSyncState(keepingPendingEdits: Bool = true) async throws {
        try await syncEngine.resetSyncState(keepingPendingEdits: keepingPendingEdits)
    }

    /// Earlier name of ``resetSyncState(keepingPendingEdits:)``.
    @available(*, deprecated, renamed: "resetSyncState()")
    public func resetClient() async throws {
        try await resetSyncState()
    }

    /// Full reset: deletes every object (local-only collections too), the whole queue —
    /// unsent edits are lost — the pull cursors and the last sync time.
    ///
    /// Registered collections and app metadata (``setMetadata(_:forKey:)``) are kept, so the
    /// store syncs again from scratch with the same settings.
    ///
    /// - Throws: a storage error; nothing changes then.
    public func resetAll() async throws {
        try await syncEngine.resetAll()
    }
}

/// Reading everything again from the server, per-collection reset, and detecting a server
/// that lost its data.
extension ObjectStore {
    /// Reads everything again from the server: checks that the server still has the data
    /// this store synced, then ``resetSyncState(keepingPendingEdits:)`` and a full refresh
    /// of every synced collection. Pending edits are kept and sent by the next flush (their
    /// objects meet the server's copies as conflicts when the server changed them), unless
    /// `keepingPendingEdits` is false: then the queue and every unsent edit go too.
    ///
    /// - Returns: the report of the full refresh.
    /// - Throws: ``OfflineStoreError`` `serverLostData` (nothing dropped; see Docs/Errors.md),
    ///   `configuration` without a backend, the server's errors before anything was dropped;
    ///   with a ``OfflineStoreError/report`` when the refresh stopped (what was dropped stays
    ///   dropped; the next refresh reads everything); a storage error (nothing changed).
    @discardableResult
    public func resyncFromServer(keepingPendingEdits: Bool = true) async throws -> SyncReport {
        try await syncEngine.resyncFromServer(keepingPendingEdits: keepingPendingEdits)
    }

    /// Earlier name of ``resyncFromServer(keepingPendingEdits:)``.
    @available(*, deprecated, renamed: "resyncFromServer(keepingPendingEdits:)")
    @discardableResult
    public func clientReset(keepingPendingEdits: Bool = true) async throws -> SyncReport {
        try await resyncFromServer(keepingPendingEdits: keepingPendingEdits)
    }

    /// Resets one collection: its synced objects and its cursor go, so the next refresh
    /// reads it in full; pending edits stay unless `keepingPendingEdits` is false.
    ///
    /// - Throws: ``OfflineStoreError`` `unknownCollection`, `invalidOperation` for a
    ///   local-only collection, a storage error (nothing changed).
    public func resetCollection(_ name: String, keepingPendingEdits: Bool = true) async throws {
        try await syncEngine.resetCollection(name, keepingPendingEdits: keepingPendingEdits)
    }
}
