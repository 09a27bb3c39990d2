extension ObjectStore {
    /// Whether a flush, refresh, sync or reset of this store file runs now, in this process
    /// or in another process that opened the same file (an app extension, a scheduled
    /// `offline-store sync`).
    ///
    /// A snapshot: it may change right after it is read. Only one process syncs a store
    /// file at a time; the others wait their turn (see Docs/Architecture.md, "Many processes").
    public var isSyncing: Bool { flushLock.isHeld }

    /// Runs a flush, refresh, sync or reset holding the sync lock (``SyncLock``). Cancelled
    /// while waiting for another process's run, it throws `cancelled` with what is left.
    func withSyncLock<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await flushLock.withLock(whenCancelledWaiting: { (try? finish(SyncReport())) ?? SyncReport() }, body)
    }
}
