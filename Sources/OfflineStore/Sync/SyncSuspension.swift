/// Whether a store is suspended (``ObjectStore/suspend()``): while it is, no flush,
/// refresh, sync or reset takes the sync lock, and a run that holds it stops at its next
/// safe point. One per ``SyncLock``.
final class SyncSuspension: Sendable {
    private struct State {
        var suspended = false
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
    }

    private let state = Locked(State())

    /// The suspension of the store whose sync lock the current task holds (nil elsewhere):
    /// what the run's safe points ask.
    @TaskLocal static var current: SyncSuspension?

    var isSuspended: Bool { state.withLock { $0.suspended } }

    /// Suspends; true when it was not suspended yet.
    @discardableResult
    func suspend() -> Bool {
        state.withLock { s in
            defer { s.suspended = true }
            return !s.suspended
        }
    }

    /// Resumes and wakes every task waiting for it.
    func resume() {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, any Error>] in
            s.suspended = false
            defer { s.waiters.removeAll() }
            return Array(s.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns at once when not suspended, else when resumed.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while waiting.
    func waitWhileSuspended() async throws {
        let id = state.withLock { s -> Int in
            s.nextWaiter += 1
            return s.nextWaiter
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let now: Result<Void, any Error>? = state.withLock { s in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if !s.suspended { return .success(()) }
                    s.waiters[id] = continuation
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
    }
}
