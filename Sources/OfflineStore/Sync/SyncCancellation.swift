/// Cancelling a flush, refresh or sync: Swift task cancellation, taken at safe points.
///
/// A run checks for cancellation only where stopping leaves nothing half done: before it
/// marks the next batch in flight, before it fetches the next page, before each blob
/// upload. A request already on the wire is not abandoned: its answer is awaited (within
/// the backend's timeout) and settled, so an edit the server applied is recorded as
/// applied instead of being resent. What was not sent stays queued.
enum SyncCancellation {
    /// The stop of a cancelled run.
    static func stop(_ what: String) -> OfflineStoreError {
        OfflineStoreError(.cancelled, "\(what) was cancelled; what was not sent stays queued")
    }

    /// The stop when the current task was cancelled, the store was suspended or the run's
    /// time budget is nearly spent (``SafePointStops``), else nil.
    static func check(_ what: String) -> OfflineStoreError? {
        Task.isCancelled ? stop(what) : SafePointStops.check(what)
    }

    /// Runs a request to the server to completion even if the calling task is cancelled
    /// meanwhile (the caller checks cancellation again afterwards, at a safe point).
    static func shielded<T: Sendable>(_ request: @escaping @Sendable () async throws -> T) async throws -> T {
        try await Task { try await request() }.value
    }

    /// A failure met while talking to the server, as the run's stop: `cancelled` when the
    /// task was cancelled (the failure may only be the cancelled request), else the error.
    static func stop(for error: any Error, _ what: String) -> OfflineStoreError {
        if Task.isCancelled || error is CancellationError { return stop(what) }
        return OfflineStoreError.sync(error)
    }
}
