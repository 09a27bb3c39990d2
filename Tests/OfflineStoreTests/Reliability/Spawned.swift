import Foundation
import OfflineStorePlatform
import OfflineStoreTestPlatform

/// A child process started and reaped through the platform layer's `Subprocess`
/// (`posix_spawn` and `waitpid`, not Foundation's `Process`: on Linux, `Process` reaps
/// children from a dispatch source, and with several children started from several threads
/// its `waitUntilExit()` was seen to hang on an exited child). Pipes are close-on-exec, so
/// no other child inherits them and every reader sees end-of-file when its writer exits.
struct Spawned: Sendable {
    private let child: Subprocess

    /// The child's process id.
    var pid: Int32 { child.pid }

    /// Starts `arguments[0]` (looked up in PATH) with standard input from /dev/null,
    /// standard output to a pipe and standard error to `stderrPath` (or /dev/null).
    init(_ arguments: [String], stderrPath: String? = nil) throws {
        child = try Subprocess(commandLine: arguments, errorFile: stderrPath)
    }

    /// Reads what the child printed, up to `maximum` bytes; empty at end of file (blocks).
    func read(maximum: Int = 65_536) -> [UInt8] { child.read(maximum: maximum) }

    /// Reads one line (without its newline); nil at end of file (blocks).
    func readLine() -> String? { child.readLine() }

    /// The port of a server child that announces itself with a first line `listening <port>`;
    /// a child that prints anything else (or nothing) is killed and reaped.
    ///
    /// - Throws: `HarnessError` naming `what` when the announcement is missing.
    func listeningPort(_ what: String) throws -> Int {
        let text = readLine() ?? ""  // blocks until the child prints or exits
        guard text.hasPrefix("listening "), let port = Int(text.dropFirst("listening ".count)) else {
            kill()
            wait()
            throw HarnessError("\(what) did not start (printed \(text.debugDescription))")
        }
        return port
    }

    /// Sends SIGKILL.
    func kill() { child.signal(Signals.kill) }

    /// Waits for the child to end (blocks); returns its exit status, or the signal number
    /// that ended it (as `Process.terminationStatus` does). Closes the pipe.
    @discardableResult
    func wait() -> Int32 {
        child.closePipes()
        return child.waitForExit()
    }
}
