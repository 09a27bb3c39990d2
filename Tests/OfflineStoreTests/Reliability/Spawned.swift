import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn` and reaped with `waitpid`, without
/// Foundation's `Process`: on Linux, `Process` reaps children from a dispatch source, and
/// with several children started from several threads its `waitUntilExit()` was seen to
/// hang on an exited (zombie) child. Pipes are created close-on-exec, so no other child
/// inherits them and every reader sees end-of-file when its writer exits.
struct Spawned: Sendable {
    /// The child's process id.
    let pid: pid_t
    /// The read end of the child's standard output.
    let stdout: Int32

    /// Starts `arguments[0]` (looked up in PATH) with standard input from /dev/null,
    /// standard output to a pipe and standard error to `stderrPath` (or /dev/null).
    init(_ arguments: [String], stderrPath: String? = nil) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw HarnessError("pipe failed: \(errno)") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }  // (pipe2 is not exported to Swift)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
        close(fds[1])
        guard rc == 0 else {
            close(fds[0])
            throw HarnessError("cannot start \(arguments[0]): error \(rc)")
        }
        self.pid = pid
        stdout = fds[0]
    }

    /// Reads what the child printed, up to `maximum` bytes; empty at end of file (blocks).
    func read(maximum: Int = 65_536) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximum)
        while true {
            let n = Glibc.read(stdout, &buffer, maximum)
            if n >= 0 { return Array(buffer.prefix(n)) }
            if errno != EINTR { return [] }
        }
    }

    /// Reads one line (without its newline); nil at end of file (blocks).
    func readLine() -> String? {
        var line: [UInt8] = []
        while true {
            var byte: UInt8 = 0
            let n = Glibc.read(stdout, &byte, 1)
            if n == 1 {
                if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
                line.append(byte)
            } else if n == 0 || errno != EINTR {
                return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
            }
        }
    }

    /// Sends SIGKILL.
    func kill() { _ = Glibc.kill(pid, SIGKILL) }

    /// Waits for the child to end (blocks); returns its exit status, or the signal number
    /// that ended it (as `Process.terminationStatus` does). Closes the pipe.
    @discardableResult
    func wait() -> Int32 {
        close(stdout)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : signal
    }
}
