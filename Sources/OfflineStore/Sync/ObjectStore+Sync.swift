import Foundation
import GRDB

/// Flush, refresh and sync: the facade over the ``SyncEngine``.
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
        try await flush(honouringRetryDelays: Self.insideAutoSyncAction)
    }

    /// A flush that skips entries whose retry delay has not come when `honouringRetryDelays` (AutoSync).
    func flush(honouringRetryDelays: Bool) async throws -> SyncReport {
        try await observed(.flush, honouringRetryDelays: honouringRetryDelays) { run in
            let engine = try requireEngine("flush to")
            let (report, stop) = try await engine.withSyncLock { try await engine.runFlush(run) }
            if let stop { throw stop.stoppingRun(after: report) }
            return report
        }
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
        try await observed(.refresh, honouringRetryDelays: false) { run in
            let engine = try requireEngine("refresh from")
            let (report, stop) = try await engine.withSyncLock { try await engine.runRefresh(collections: collections, full: full, run) }
            if let stop { throw stop.stoppingRun(after: report) }
            try engine.markSynced()
            return report
        }
    }

    /// Flushes the queue, then refreshes (SAP flushAndRefresh), with one report.
    ///
    /// - Throws: ``OfflineStoreError`` when either step stopped early, with what was done in its ``OfflineStoreError/report``.
    @discardableResult
    public func sync() async throws -> SyncReport {
        try await sync(honouringRetryDelays: Self.insideAutoSyncAction)
    }

    /// A sync whose flush skips entries whose retry delay has not come when `honouringRetryDelays` (AutoSync).
    func sync(honouringRetryDelays: Bool) async throws -> SyncReport {
        try await observed(.sync, honouringRetryDelays: honouringRetryDelays) { run in
            let engine = try requireEngine("sync with")
            var report = SyncReport()
            let stop: OfflineStoreError? = try await engine.withSyncLock {
                let (pushed, flushStop) = try await engine.runFlush(run)
                report.absorb(pushed)
                if let flushStop { return flushStop }
                let (pulled, refreshStop) = try await engine.runRefresh(collections: nil, full: false, run)
                report.absorb(pulled)
                return refreshStop
            }
            if let stop { throw stop.stoppingRun(after: report) }
            try engine.markSynced()
            return report
        }
    }

    /// Runs a public flush/refresh/sync body with its `started` / `finished` / `error`
    /// events (also when the store has no backend: the run then ends with its error) and
    /// the run's progress counter.
    private func observed(_ operation: SyncOperation, honouringRetryDelays: Bool,
                          _ body: (SyncRun) async throws -> SyncReport) async throws -> SyncReport {
        runtime.events.send(.started(operation))
        do {
            let report = try await body(SyncRun(progress: ProgressCounter(), honoursRetryDelays: honouringRetryDelays))
            runtime.events.send(.finished(operation, report))
            return report
        } catch {
            runtime.events.send(.error(operation, OfflineStoreError.sync(error)))
            throw error
        }
    }

    /// When the last flush-and-refresh or refresh completed, or nil if never.
    public func lastSync() throws -> Date? {
        try read("reading the last sync time") { db in
            try MetaTable.value(forKey: MetaTable.lastSyncKey, in: db).flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
        }
    }

    /// Whether a flush, refresh, sync or reset of this store file runs now, in this process
    /// or in another process that opened the same file (an app extension, a scheduled
    /// `offline-store sync`).
    ///
    /// A snapshot: it may change right after it is read. Only one process syncs a store
    /// file at a time; the others wait their turn (see Docs/Architecture.md, "Many processes").
    public var isSyncing: Bool { syncLock.isHeld }

    /// Runs a reset holding the sync lock (``SyncLock``). Cancelled while waiting for
    /// another process's run, it throws `cancelled` with what is left.
    func withSyncLock<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await syncLock.withLock(whenCancelledWaiting: { (try? local.leftReport()) ?? SyncReport() }, body)
    }

    /// The id the server assigned to an object created under `id`, or `id` itself when it was never re-keyed.
    ///
    /// - Throws: storage errors (``OfflineStoreError``).
    public func serverID(for id: String, in collection: String) throws -> String {
        try read("reading id aliases") { db in try KeyedRows.serverID(db, for: id, in: collection) ?? id }
    }
}

extension LocalStore {
    /// A report of what is left in the store: conflicts, failed, pending and held-back entries.
    func leftReport() throws -> SyncReport {
        var report = SyncReport()
        let left = try read("counting what is left") { db in try QueueTable.leftCounts(db) }
        report.conflicts = left.conflicts
        report.failed = left.failed
        report.pending = left.pending
        report.heldBack = left.heldBack
        return report
    }
}
