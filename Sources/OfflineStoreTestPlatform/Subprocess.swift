#if os(macOS) || os(Linux)
import Foundation
import OfflineStorePlatform
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A child process started with `posix_spawn(2)` and reaped with `waitpid(2)`: the test
/// suite's servers, tools and workloads (macOS and Linux).
///
/// Not Foundation's `Process`: on Linux, swift-corelibs-foundation's `Process.run()` (Swift
/// 6.3) scans `/proc/self/fd` and copied each `dirent` whole, reading past glibc's buffer
/// (it crashed a full test run), and its `waitUntilExit()` was seen to hang on an exited
/// child when several were started from several threads.
///
/// The child starts with standard input from /dev/null, standard output and error to
/// close-on-exec pipes, a file or /dev/null, every other descriptor closed, no signal
/// blocked and SIGINT, SIGTERM and SIGPIPE at their defaults (whatever the spawning thread
/// had: signal tests depend on it), and optionally another working directory.
/// Where the platforms differ:
/// - the spawn objects are structures on Glibc and Musl, optional pointers on Darwin;
/// - closing the other descriptors is `POSIX_SPAWN_CLOEXEC_DEFAULT` on Darwin and
///   `posix_spawn_file_actions_addclosefrom_np` on glibc 2.34+ (looked up at run time: Swift's
///   Glibc module does not export it; the pipes are close-on-exec either way);
/// - changing directory is `posix_spawn_file_actions_addchdir_np` (Darwin since macOS 10.15;
///   glibc 2.29+ and musl looked up at run time), else a `/bin/sh -c 'cd … && exec …'`.
package struct Subprocess: Sendable {
    /// Where one of the child's output streams goes.
    package enum Output: Sendable {
        /// A pipe the parent reads (``standardOutput``/``standardError``).
        case pipe
        /// A file, created or truncated (0644).
        case file(String)
        /// /dev/null.
        case discard
        /// A terminal device, opened read-write without becoming the child's controlling
        /// terminal: the slave side of a ``PseudoTerminal``.
        case terminal(String)
    }

    /// The child's process id.
    package let pid: Int32
    /// The read end of the child's standard output; -1 unless it is a pipe.
    package let standardOutput: Int32
    /// The read end of the child's standard error; -1 unless it is a pipe.
    package let standardError: Int32

    /// Starts `executable` with `arguments` (not including the program name).
    ///
    /// - Parameters:
    ///   - searchPath: look `executable` up in `PATH` (`posix_spawnp`) instead of taking it as a path.
    ///   - environment: the child's environment; nil: this process's.
    ///   - directory: the child's working directory; nil: this process's.
    /// - Throws: ``SystemError`` when a pipe or the spawn fails.
    package init(executable: String, arguments: [String], environment: [String: String]? = nil,
                 directory: String? = nil, searchPath: Bool = false,
                 standardOutput: Output = .pipe, standardError: Output = .pipe) throws {
        let out = try Self.pipeIfAsked(standardOutput)
        let err: (read: Int32, write: Int32)?
        do { err = try Self.pipeIfAsked(standardError) } catch {
            if let out { _ = closeDescriptor(out.read); _ = closeDescriptor(out.write) }
            throw error
        }
        defer {
            if let out { _ = closeDescriptor(out.write) }
            if let err { _ = closeDescriptor(err.write) }
        }
        var actions = emptyFileActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        Self.direct(standardOutput, to: 1, pipe: out, &actions)
        Self.direct(standardError, to: 2, pipe: err, &actions)
        closeOtherDescriptors(&actions)

        var argumentList = arguments
        var program = executable
        var lookUp = searchPath
        if let directory, !changeDirectory(directory, &actions) {
            argumentList = ["-c", "cd \"$0\" && exec \"$@\"", directory, executable] + arguments
            program = "/bin/sh"
            lookUp = false
        }
        let argv = ([program] + argumentList).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environmentList = (environment ?? ProcessInfo.processInfo.environment)
            .map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { environmentList.forEach { free($0) } }

        var attributes = emptySpawnAttributes()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | closeOnExecDefaultFlag))

        var pid: pid_t = 0
        let rc = lookUp
            ? posix_spawnp(&pid, program, &actions, &attributes, argv, environmentList)
            : posix_spawn(&pid, program, &actions, &attributes, argv, environmentList)
        guard rc == 0 else {
            if let out { _ = closeDescriptor(out.read) }
            if let err { _ = closeDescriptor(err.read) }
            throw SystemError("spawn \(executable)", code: rc)
        }
        self.pid = pid
        self.standardOutput = out?.read ?? -1
        self.standardError = err?.read ?? -1
    }

    /// Starts `arguments[0]` (looked up in `PATH`) with the others, this process's
    /// environment, standard output to a pipe and standard error to `errorFile` (or /dev/null).
    ///
    /// - Throws: ``SystemError`` when the pipe or the spawn fails.
    package init(commandLine arguments: [String], errorFile: String? = nil) throws {
        precondition(!arguments.isEmpty, "a command line names its program")
        try self.init(executable: arguments[0], arguments: Array(arguments.dropFirst()), searchPath: true,
                      standardError: errorFile.map { .file($0) } ?? .discard)
    }

    /// Reads what the child printed on standard output, up to `maximum` bytes; empty at
    /// end of file (blocks).
    package func read(maximum: Int = 65_536) -> [UInt8] {
        Self.read(standardOutput, maximum: maximum)
    }

    /// Reads from one of the child's pipes (``standardOutput`` or ``standardError``), up to
    /// `maximum` bytes; empty at end of file or on an error (blocks).
    package static func read(_ descriptor: Int32, maximum: Int = 65_536) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximum)
        while true {
            let count = buffer.withUnsafeMutableBytes { readDescriptor(descriptor, $0.baseAddress, $0.count) }
            if count >= 0 { return Array(buffer.prefix(count)) }
            if errno != EINTR { return [] }
        }
    }

    /// Reads one line of standard output (without its newline); nil at end of file (blocks).
    package func readLine() -> String? {
        var line: [UInt8] = []
        while true {
            var byte: UInt8 = 0
            let count = readDescriptor(standardOutput, &byte, 1)
            if count == 1 {
                if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
                line.append(byte)
            } else if count == 0 || errno != EINTR {
                return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
            }
        }
    }

    /// Sends `signal` (e.g. ``Signals/kill``); false when it could not be delivered.
    @discardableResult
    package func signal(_ signal: Int32) -> Bool {
        Signals.send(signal, to: pid)
    }

    /// Closes the parent's read ends of the child's pipes.
    package func closePipes() {
        if standardOutput >= 0 { _ = closeDescriptor(standardOutput) }
        if standardError >= 0 { _ = closeDescriptor(standardError) }
    }

    /// Waits for the child to end (blocks); its exit status, or the number of the signal
    /// that ended it (as `Process.terminationStatus` says).
    ///
    /// The status word is decoded by hand (`WIFEXITED` and friends are macros Swift does not
    /// import); its layout — signal in the low 7 bits, exit status in the next 8 — is the
    /// same on Darwin, Glibc and Musl.
    package func waitForExit() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : signal
    }

    private static func pipeIfAsked(_ output: Output) throws -> (read: Int32, write: Int32)? {
        guard case .pipe = output else { return nil }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw SystemError("pipe", code: errno) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }  // (pipe2 is not in Darwin)
        return (fds[0], fds[1])
    }

    private static func direct(_ output: Output, to target: Int32, pipe: (read: Int32, write: Int32)?,
                               _ actions: inout FileActions) {
        switch output {
        case .pipe: if let pipe { posix_spawn_file_actions_adddup2(&actions, pipe.write, target) }
        case .file(let path): posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        case .discard: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
        case .terminal(let path): posix_spawn_file_actions_addopen(&actions, target, path, O_RDWR | O_NOCTTY, 0)
        }
    }
}

/// `read(2)`, under a name that does not collide with the type's own `read` methods.
private func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

#if canImport(Darwin)
// Darwin's spawn objects are opaque pointers, nil until initialised.
private typealias FileActions = posix_spawn_file_actions_t?
private typealias SpawnAttributes = posix_spawnattr_t?
private func emptyFileActions() -> FileActions { nil }
private func emptySpawnAttributes() -> SpawnAttributes { nil }

/// Every descriptor not named by a file action is closed in the child.
private let closeOnExecDefaultFlag = Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)

private func closeOtherDescriptors(_ actions: inout FileActions) {}

private func changeDirectory(_ path: String, _ actions: inout FileActions) -> Bool {
    posix_spawn_file_actions_addchdir_np(&actions, path) == 0
}
#else
// Glibc's and Musl's spawn objects are structures, zeroed before `init`.
private typealias FileActions = posix_spawn_file_actions_t
private typealias SpawnAttributes = posix_spawnattr_t
private func emptyFileActions() -> FileActions { posix_spawn_file_actions_t() }
private func emptySpawnAttributes() -> SpawnAttributes { posix_spawnattr_t() }

private let closeOnExecDefaultFlag: Int32 = 0

private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
private typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?) -> Int32

/// A C function of the running process by name (`RTLD_DEFAULT`, which is 0 on Glibc and Musl).
private func symbol<T>(_ name: String, as type: T.Type) -> T? {
    guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
    return unsafeBitCast(address, to: type)
}

/// Closes every descriptor from 3 up in the child, where glibc (2.34+) can.
private func closeOtherDescriptors(_ actions: inout FileActions) {
    guard let closeFrom = symbol("posix_spawn_file_actions_addclosefrom_np", as: CloseFrom.self) else { return }
    _ = closeFrom(&actions, 3)
}

/// Sets the child's working directory, where glibc (2.29+) or musl can; false otherwise.
private func changeDirectory(_ path: String, _ actions: inout FileActions) -> Bool {
    guard let change = symbol("posix_spawn_file_actions_addchdir_np", as: ChangeDirectory.self) else { return false }
    return change(&actions, path) == 0
}
#endif
#endif
