import Foundation
import OfflineStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    /// once with status 128 + signal (the store's writes are crash-safe).
    ///
    /// The handlers are in place when this returns (`sigaction`), so a signal sent right
    /// after is never lost — a Dispatch signal source registers asynchronously and would
    /// miss it. The C handler only writes the signal number to a pipe (async-signal-safe);
    /// a thread of its own reads the pipe and calls ``request()``.
    func installHandlers(for signals: [Int32] = [SIGINT, SIGTERM]) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { preconditionFailure("pipe() failed: \(errno)") }
        signalPipeWriteEnd = fds[1]   // before `sigaction` below, so every handler run sees it
        let readEnd = fds[0]
        Thread { [self] in
            var number: UInt8 = 0
            while read(readEnd, &number, 1) == 1 {
                if request() { _exit(128 + Int32(number)) }
            }
        }.start()
        for number in signals {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = forwardSignal
            #else
            action.__sigaction_u.__sa_handler = forwardSignal
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }
}

/// The write end of the pipe the signal handler writes to; -1 until handlers are installed.
///
/// A plain global, not a lock (taking a lock in a signal handler is not async-signal-safe)
/// nor `Atomic` (it needs the `Synchronization` module and its iOS 18 / macOS 15 floor).
/// `nonisolated(unsafe)` is safe here: it is written once, by ``StopSignal/installHandlers(for:)``
/// before `sigaction` installs the handler (a system call, so the write is visible to any
/// later handler run), and only read afterwards.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The C signal handler: writes the signal number to the pipe (async-signal-safe).
private func forwardSignal(_ number: Int32) {
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd, &byte, 1)
}
