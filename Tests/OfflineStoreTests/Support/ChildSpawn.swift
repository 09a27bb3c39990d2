import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a child process with `posix_spawn`, without Foundation's `Process`.
///
/// On Linux, swift-corelibs-foundation's `Process.run()` (Swift 6.3) scans `/proc/self/fd`
/// and copies each `dirent` whole, reading past the end of glibc's `readdir` buffer: with
/// the number of descriptors a full test run holds open, the copy hit an unmapped page and
/// crashed the whole test process (`memmove` inside `Process.run`, fixed upstream later).
/// This spawns directly: standard input from /dev/null, standard output and error to
/// close-on-exec pipes (or a file), every other descriptor closed in the child
/// (`posix_spawn_file_actions_addclosefrom_np`, looked up at run time as Swift's Glibc
/// module does not export it), and the working directory set in the child.
struct ChildSpawn: Sendable {
    /// Where the child's standard error goes.
    enum ErrorOutput: Sendable {
        case pipe
        case file(String)
    }

    /// The child's process id.
    let pid: pid_t
    /// The read end of the child's standard output.
    let stdout: Int32
    /// The read end of the child's standard error (-1 when it goes to a file).
    let stderr: Int32

    /// Starts `executable` with `arguments` (not including the program name).
    ///
    /// - Throws: `HarnessError` when a pipe or the spawn fails.
    init(executable: String, arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
         stderr errorOutput: ErrorOutput = .pipe) throws {
        let out = try Self.pipe()
        let err: (read: Int32, write: Int32)? = if case .pipe = errorOutput { try Self.pipe() } else { nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out.write, 1)
        switch errorOutput {
        case .pipe: if let err { posix_spawn_file_actions_adddup2(&actions, err.write, 2) }
        case .file(let path): posix_spawn_file_actions_addopen(&actions, 2, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        Self.closeFrom(3, &actions)
        var argumentList = arguments
        var program = executable
        if let directory {
            if !Self.changeDirectory(directory, &actions) {
                // No addchdir_np: let a shell change directory, then exec the program.
                argumentList = ["-c", "cd \"$0\" && exec \"$@\"", directory, executable] + arguments
                program = "/bin/sh"
            }
        }
        let argv = ([program] + argumentList).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environmentList = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { environmentList.forEach { free($0) } }
        // The child starts with no signal blocked and SIGINT, SIGTERM and SIGPIPE at their
        // defaults, whatever the spawning test thread had: signal tests depend on it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, program, &actions, &attributes, argv, environmentList)
        close(out.write)
        if let err { close(err.write) }
        guard rc == 0 else {
            close(out.read)
            if let err { close(err.read) }
            throw HarnessError("cannot start \(executable): error \(rc)")
        }
        self.pid = pid
        self.stdout = out.read
        self.stderr = err?.read ?? -1
    }

    /// Waits for the child to end (blocks); its exit status, or the number of the signal
    /// that ended it (as `Process.terminationStatus` says).
    func waitForExit() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : signal
    }

    private static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard Glibc.pipe(&fds) == 0 else { throw HarnessError("pipe failed: \(errno)") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    private typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?) -> Int32

    private static func symbol<T>(_ name: String, as type: T.Type) -> T? {
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }   // RTLD_DEFAULT
        return unsafeBitCast(address, to: type)
    }

    /// Closes every descriptor from `lowest` up in the child, where glibc (2.34+) can.
    private static func closeFrom(_ lowest: Int32, _ actions: inout posix_spawn_file_actions_t) {
        guard let closeFrom = symbol("posix_spawn_file_actions_addclosefrom_np", as: CloseFrom.self) else { return }
        _ = closeFrom(&actions, lowest)
    }

    /// Sets the child's working directory, where glibc (2.29+) can; false otherwise.
    private static func changeDirectory(_ path: String, _ actions: inout posix_spawn_file_actions_t) -> Bool {
        guard let change = symbol("posix_spawn_file_actions_addchdir_np", as: ChangeDirectory.self) else { return false }
        return change(&actions, path) == 0
    }
}
