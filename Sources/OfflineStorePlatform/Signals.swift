#if os(macOS) || os(Linux)
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Signal numbers and the process-wide signal handling of the command-line tool.
///
/// macOS and Linux only: apps on iOS, tvOS, watchOS and visionOS neither send nor handle
/// these signals.
package enum Signals {
    /// SIGINT (Control-C).
    package static let interrupt: Int32 = SIGINT
    /// SIGTERM (a polite stop, e.g. from a service manager).
    package static let terminate: Int32 = SIGTERM
    /// SIGKILL (cannot be caught).
    package static let kill: Int32 = SIGKILL

    /// Sends `signal` to process `pid`; false when it cannot be delivered (e.g. the process is gone).
    @discardableResult
    package static func send(_ signal: Int32, to pid: Int32) -> Bool {
        sendSignal(pid, signal) == 0
    }

    /// Ends the process at once with `status`, running no exit handlers (`_exit(2)`): for a
    /// second interrupt, when the store's writes are already crash-safe.
    package static func exitNow(_ status: Int32) -> Never {
        immediateExit(status)
    }

    /// Routes `signals` to `handler` for the rest of the process.
    ///
    /// The handlers are in place when this returns (`sigaction`, `SA_RESTART`), so a signal
    /// sent right after is never lost — a Dispatch signal source registers asynchronously
    /// and would miss it. The C handler only writes the signal number to a pipe
    /// (async-signal-safe); a thread of its own reads the pipe and calls `handler` with
    /// each number. Call it once per process.
    package static func forward(_ signals: [Int32], to handler: @escaping @Sendable (Int32) -> Void) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { preconditionFailure("pipe() failed: \(errno)") }
        precondition(signalPipeWriteEnd < 0, "Signals.forward is called once per process")
        signalPipeWriteEnd = fds[1]   // before `sigaction` below, so every handler run sees it
        let readEnd = fds[0]
        let reader = Thread {
            var number: UInt8 = 0
            while read(readEnd, &number, 1) == 1 { handler(Int32(number)) }
        }
        reader.name = "signal-forwarder"
        reader.start()
        for number in signals {
            var action = sigaction()
            #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = forwardSignal
            #elseif canImport(Glibc)
            action.__sigaction_handler.sa_handler = forwardSignal
            #elseif canImport(Musl)
            action.__sa_handler.sa_handler = forwardSignal
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }
}

/// `kill(2)`, under a name that does not collide with the types' own `kill()` methods.
private func sendSignal(_ pid: Int32, _ signal: Int32) -> Int32 {
    kill(pid, signal)
}

/// `_exit(2)`.
private func immediateExit(_ status: Int32) -> Never {
    _exit(status)
}

/// The write end of the pipe the signal handler writes to; -1 until handlers are installed.
///
/// A plain global, not a lock (taking a lock in a signal handler is not async-signal-safe)
/// nor `Atomic` (it needs the `Synchronization` module and its iOS 18 / macOS 15 floor).
/// `nonisolated(unsafe)` is safe here: it is written once, by ``Signals/forward(_:to:)``
/// before `sigaction` installs the handler (a system call, so the write is visible to any
/// later handler run), and only read afterwards.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The C signal handler: writes the signal number to the pipe (async-signal-safe).
private func forwardSignal(_ number: Int32) {
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd, &byte, 1)
}
#endif
