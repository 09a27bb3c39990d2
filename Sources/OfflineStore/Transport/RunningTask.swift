import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The data, upload or download task of one transport call, cancellable before it starts.
final class RunningTask: Sendable {
    private let state = Locked<(task: URLSessionTask?, cancelled: Bool)>((nil, false))

    /// Starts the task, or cancels it at once when the caller was already cancelled.
    func start(_ task: URLSessionTask) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() } else { task.resume() }
    }

    /// Cancels the task (now or when it starts).
    func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }

    /// Suspends the task (a streamed body's reader is behind).
    func suspend() { state.withLock { $0.task }?.suspend() }

    /// Resumes a suspended task.
    func resume() { state.withLock { $0.task }?.resume() }

    /// Whether the caller cancelled.
    var wasCancelled: Bool { state.withLock { $0.cancelled } }

    /// The answer the delegate kept for this task after a challenge, if any.
    func challenged(_ delegate: SessionDelegate) -> HTTPURLResponse? {
        state.withLock { $0.task?.taskIdentifier }.flatMap(delegate.takeChallengedResponse)
    }
}
