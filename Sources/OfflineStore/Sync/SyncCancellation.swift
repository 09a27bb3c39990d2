/// Cancelling a flush, refresh or sync: Swift task cancellation, taken at safe points.
///
/// A run checks for cancellation only where stopping leaves nothing half done: before it
/// marks the next batch in flight, before it fetches the next page, before each blob
/// upload. A request already on the wire is not abandoned: its answer is awaited (within
/// the backend's timeout) and settled, so an edit the server applied is recorded as
/// applied instead of being resent. What was not sent stays queued. The one exception is a
/// suspension's deadline (``SyncSuspension``): a push still unanswered then is cancelled
/// and handled as an answer that never came (``interruptedPush(_:)``).
enum SyncCancellation {
    /// The stop of a cancelled run.
    static func stop(_ what: String) -> OfflineStoreError {
        OfflineStoreError(.cancelled, "\(what) was cancelled; what was not sent stays queued")
    }

    /// The stop when the store was suspended, the current task was cancelled or the run's
    /// time budget is nearly spent (``SafePointStops``), else nil. A suspension is named
    /// first: its deadline cancels the run too.
    static func check(_ what: String) -> OfflineStoreError? {
        if let suspended = SafePointStops.suspended(what) { return suspended }
        return Task.isCancelled ? stop(what) : SafePointStops.check(what)
    }

    /// Runs a request to the server to completion even if the calling task is cancelled
    /// meanwhile (the caller checks cancellation again afterwards, at a safe point). Only a
    /// suspension's deadline cancels it.
    static func shielded<T: Sendable>(_ request: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task.startedHere { try await request() }
        guard let suspension = SyncSuspension.current else { return try await task.value }
        return try await suspension.cancellingAtDeadline({ task.cancel() }) { try await task.value }
    }

    /// A failure met while talking to the server, as the run's stop: `cancelled` when the
    /// store was suspended or the task was cancelled (the failure may only be the cancelled
    /// request), else the error.
    static func stop(for error: any Error, _ what: String) -> OfflineStoreError {
        if let suspended = SafePointStops.suspended(what), Task.isCancelled || error is CancellationError {
            return suspended
        }
        if Task.isCancelled || error is CancellationError { return stop(what) }
        return OfflineStoreError.sync(error)
    }

    /// The stop of a push whose request the suspension's deadline cancelled, nil for any
    /// other failure. Its answer never came, so the server may have applied it: the caller
    /// handles it as a lost answer (the entries are resent with the same payload, creates are
    /// watched for a late delivery), and the run stops with `cancelled`.
    static func interruptedPush(_ error: any Error) -> OfflineStoreError? {
        guard let suspension = SyncSuspension.current, suspension.isInterrupted else { return nil }
        return OfflineStoreError(.cancelled, "the flush stopped because the store was suspended (the app is going to "
            + "the background): a request still unanswered at the suspension's deadline was cancelled, so the server "
            + "may have applied it; it is resent after resume, what was not sent stays queued",
            underlying: String(describing: error))
    }
}
