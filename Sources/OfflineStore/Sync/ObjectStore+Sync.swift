import Foundation

/// Flush, refresh and sync: the facade over the ``SyncEngine`` (``SyncEngine+Runs``).
extension ObjectStore {
    /// Pushes the pending queue to the server in FIFO order, batching where the backend allows.
    ///
    /// 2xx: the persistent copy becomes the server's answer and the entry goes (a newer
    /// local edit made meanwhile stays queued). 409/412: the collection's conflict policy
    /// decides. Other 4xx: the entry becomes `failed` with status and body, and later edits
    /// of that object wait. 5xx, timeouts and lost connections keep the entry pending and
    /// stop the flush.
    ///
    /// - Returns: the counts of what was done and what is left.
    /// - Throws: ``OfflineStoreError`` when the run stopped early (offline, unauthorized,
    ///   server error), with what was done before in its ``OfflineStoreError/report`` (kept). ``OfflineStoreError/Code/configuration``
    ///   without a backend.
    @discardableResult
    public func flush() async throws -> SyncReport {
        try await syncEngine.flush(honouringRetryDelays: SyncContext.insideAutoSyncAction)
    }

    /// Pulls the server's changes of every synced collection (or the named ones) since
    /// their stored cursors, page by page, in chunked transactions.
    ///
    /// A cursor advances only with the page it belongs to, in the same transaction as
    /// its last change. Tombstones delete. An incoming change to an object with a local
    /// edit based on another version is a conflict, settled by the collection's policy.
    /// Where the server assigns ids, a new record holding what one of our unanswered
    /// creates sent is taken as that create's answer.
    ///
    /// - Parameters:
    ///   - collections: the collections to pull; nil for every collection that is not local-only.
    ///   - full: ignore the stored cursors and read everything (first sync, repair).
    /// - Throws: ``OfflineStoreError`` when the run stopped early, with what was applied (it stays applied) in its ``OfflineStoreError/report``.
    @discardableResult
    public func refresh(collections: [String]? = nil, full: Bool = false) async throws -> SyncReport {
        try await syncEngine.refresh(collections: collections, full: full)
    }

    /// Flushes the queue, then refreshes (SAP flushAndRefresh), with one report.
    ///
    /// - Throws: ``OfflineStoreError`` when either step stopped early, with what was done in its ``OfflineStoreError/report``.
    @discardableResult
    public func sync() async throws -> SyncReport {
        try await syncEngine.sync(honouringRetryDelays: SyncContext.insideAutoSyncAction)
    }

    /// When the last flush-and-refresh or refresh completed, or nil if never.
    public func lastSync() throws -> Date? {
        try syncEngine.lastSync()
    }

    /// Whether a flush, refresh, sync or reset of this store file runs now, in this process
    /// or in another process that opened the same file (an app extension, a scheduled
    /// `offline-store sync`).
    ///
    /// A snapshot: it may change right after it is read. Only one process syncs a store
    /// file at a time; the others wait their turn (see Docs/Architecture.md, "Many processes").
    public var isSyncing: Bool { syncEngine.lock.isHeld }

    /// The id the server assigned to an object created under `id`, or `id` itself when it was never re-keyed.
    ///
    /// - Throws: storage errors (``OfflineStoreError``).
    public func serverID(for id: String, in collection: String) throws -> String {
        try local.serverID(for: id, in: collection) ?? id
    }
}
