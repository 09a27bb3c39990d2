import Foundation
import OfflineStore
import OfflineStorePlatform

/// A request to stop a scheduled job after its current step, made by SIGINT/SIGTERM or a test.
///
/// Safe to share between tasks: its state lives in a `Locked`.
final class StopSignal: Sendable {
    private struct State {
        var requested = false
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Locked(State())

    /// Whether a stop was requested.
    var isRequested: Bool { state.withLock { $0.requested } }

    /// Requests the stop and wakes every waiter; returns whether it had been requested before.
    @discardableResult
    func request() -> Bool {
        let (wasRequested, waiters) = state.withLock { s -> (Bool, [CheckedContinuation<Void, Never>]) in
            let was = s.requested
            s.requested = true
            defer { s.waiters.removeAll() }
            return (was, Array(s.waiters.values))
        }
        for waiter in waiters { waiter.resume() }
        return wasRequested
    }

    /// Returns when a stop is requested, or when the calling task is cancelled.
    func wait() async {
        let id = state.withLock { s -> Int in
            s.nextWaiter += 1
            return s.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { s -> Bool in
                    if s.requested || Task.isCancelled { return true }
                    s.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Routes SIGINT and SIGTERM to ``request()`` for the rest of the process: the first
    /// signal asks the job to stop after its current step; a second one ends the process at
    /// once with status 128 + signal (the store's writes are crash-safe). The handlers are in
    /// place when this returns (``Signals/forward(_:to:)``, the platform layer), so a signal
    /// sent right after is never lost.
    func installHandlers(for signals: [Int32] = [Signals.interrupt, Signals.terminate]) {
        Signals.forward(signals) { [self] number in
            if request() { Signals.exitNow(128 + number) }
        }
    }
}
