/// Whether a store is suspended (``ObjectStore/suspend(within:postingDatabaseNotification:)``):
/// while it is, no flush, refresh, sync or reset takes the sync lock, and a run that holds it
/// stops at its next safe point. When the suspension's deadline passes before the run has
/// stopped, what it still has in flight is cancelled (``interrupt(epoch:)``). One per
/// ``SyncLock``; the rules are ``SuspensionState``'s.
final class SyncSuspension: Sendable {
    private let state = Locked(SuspensionState())

    /// The suspension of the store whose sync lock the current task holds (nil elsewhere):
    /// what the run's safe points ask, and where its requests register to be cancelled.
    @TaskLocal static var current: SyncSuspension?

    var isSuspended: Bool { state.withLock { $0.suspended } }

    /// Whether the current suspension's deadline has passed.
    var isInterrupted: Bool { state.withLock { $0.interrupted } }

    /// Suspends; returns the suspension's epoch, for ``interrupt(epoch:)``.
    @discardableResult
    func suspend() -> Int {
        state.withLock { $0.suspend() }
    }

    /// Resumes and wakes every task waiting for it.
    func resume() {
        for waiter in state.withLock({ $0.resume() }) { waiter.resume() }
    }

    /// The deadline of suspension `epoch` has passed: cancels what the run holding the sync
    /// lock has in flight. Does nothing once that suspension has ended.
    func interrupt(epoch: Int) {
        for action in state.withLock({ $0.interrupt(epoch: epoch) }) { action() }
    }

    /// Returns at once when not suspended, else when resumed.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while waiting.
    func waitWhileSuspended() async throws {
        let id = state.withLock { $0.makeID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let now: Result<Void, any Error>? = state.withLock { s in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    return s.waitForResume(continuation, id: id) ? nil : .success(())
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            state.withLock { $0.stopWaitingForResume(id) }?.resume(throwing: CancellationError())
        }
    }

    /// Runs `cancel` when the deadline passes while `body` runs (at once if it has passed).
    func cancellingAtDeadline<T>(_ cancel: @escaping @Sendable () -> Void, _ body: () async throws -> T) async rethrows -> T {
        let id = state.withLock { $0.makeID() }
        if !state.withLock({ $0.onInterruption(cancel, id: id) }) { cancel() }
        defer { _ = state.withLock { $0.removeInterruption(id) } }
        return try await body()
    }

    /// Runs `body` (the run that holds the sync lock) in a child task that is cancelled when
    /// the deadline passes, and returns or throws what it does. A cancelled run stops as a
    /// cancelled task does: requests that honour cancellation end at once (the transport's
    /// do), the rest of the run stops at its next safe point.
    func runCancellableAtDeadline<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await withoutActuallyEscaping(body) { body in
            let run = RunBody(body: body)
            return try await withThrowingTaskGroup(of: RunOutcome<T>.self) { group in
                group.addTask { .finished(try await run.body()) }
                group.addTask {
                    await self.waitForInterruption()
                    return .deadlinePassed
                }
                while let outcome = try await group.next() {
                    // Either way the other child ends: the waiter at once, the run at its next
                    // safe point (it was cancelled).
                    group.cancelAll()
                    if case .finished(let value) = outcome { return value }
                }
                preconditionFailure("the run's child task ended without a result")
            }
        }
    }

    /// Returns when the deadline passes, or when the task is cancelled.
    func waitForInterruption() async {
        let id = state.withLock { $0.makeID() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { s in
                    Task.isCancelled || !s.onInterruption({ continuation.resume() }, id: id)
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.removeInterruption(id) }?()
        }
    }
}

/// How a child of ``SyncSuspension/runCancellableAtDeadline(_:)`` ended.
private enum RunOutcome<T: Sendable>: Sendable {
    case finished(T)
    case deadlinePassed
}

/// The run's body, handed to the child task that runs it.
// @unchecked: the body (and what it captured) is used by one task at a time: the child task
// runs it while the task that created the group waits for the group, and the group ends
// before `withoutActuallyEscaping` returns.
private struct RunBody<T>: @unchecked Sendable {
    let body: () async throws -> T
}
