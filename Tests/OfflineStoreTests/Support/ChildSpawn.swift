import Foundation
import OfflineStorePlatform
import OfflineStoreTestPlatform

/// Starts a child process through the platform layer's `Subprocess` (`posix_spawn`,
/// not Foundation's `Process`, whose Linux spawn crashed the test process; see there):
/// standard input from /dev/null, standard output and error to close-on-exec pipes (or a
/// file), every other descriptor closed in the child, and the working directory set in it.
struct ChildSpawn: Sendable {
    /// Where the child's standard error goes.
    enum ErrorOutput: Sendable {
        case pipe
        case file(String)
        /// A terminal device: a ``PseudoTerminal``'s slave side.
        case terminal(String)
    }

    private let child: Subprocess

    /// The child's process id.
    var pid: Int32 { child.pid }
    /// The read end of the child's standard output.
    var stdout: Int32 { child.standardOutput }
    /// The read end of the child's standard error (-1 when it goes to a file or a terminal).
    var stderr: Int32 { child.standardError }

    /// Starts `executable` with `arguments` (not including the program name).
    ///
    /// - Throws: `SystemError` when a pipe or the spawn fails.
    init(executable: String, arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
         stderr errorOutput: ErrorOutput = .pipe) throws {
        let standardError: Subprocess.Output = switch errorOutput {
        case .pipe: .pipe
        case .file(let path): .file(path)
        case .terminal(let path): .terminal(path)
        }
        child = try Subprocess(executable: executable, arguments: arguments, environment: environment,
                                 directory: directory, standardError: standardError)
    }

    /// Reads the child's standard output to its end (blocks), handing each complete line,
    /// without its newline, to `body`; it closes the pipe when done. A last line without a
    /// newline (the child killed mid-line) is not handed on.
    func forEachOutputLine(_ body: (String) throws -> Void) rethrows {
        let handle = FileHandle(fileDescriptor: stdout, closeOnDealloc: true)
        var buffer: [UInt8] = []
        while true {
            let chunk = handle.availableData  // blocks until data or end of file
            if chunk.isEmpty { break }
            buffer.append(contentsOf: chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                try body(line)
            }
        }
    }

    /// Sends `signal` to the child (e.g. `Signals.kill`).
    func signal(_ signal: Int32) { child.signal(signal) }

    /// Waits for the child to end (blocks); its exit status, or the number of the signal
    /// that ended it (as `Process.terminationStatus` says).
    func waitForExit() -> Int32 { child.waitForExit() }
}
