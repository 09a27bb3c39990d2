import Foundation
import OfflineStore
import Testing
import OfflineStorePlatform
import OfflineStoreTestPlatform

/// The built `offline-store` executable: `$OFFLINE_STORE_BIN`, next to the test bundle, or
/// in the package's `.build/debug`. Missing is a test failure, never a skip.
enum CLIBinary {
    struct Missing: Error, CustomStringConvertible {
        let searched: [String]
        var description: String {
            "the offline-store executable was not found (searched \(searched.joined(separator: ", "))); "
                + "build it with `swift build --build-tests` or set OFFLINE_STORE_BIN"
        }
    }

    static func url() throws -> URL {
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["OFFLINE_STORE_BIN"], !path.isEmpty {
            candidates.append(URL(fileURLWithPath: path))
        }
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("offline-store"))
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("offline-store"))
        }
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/offline-store"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw Missing(searched: candidates.map(\.path))
        }
        return found
    }
}

/// What one run of the CLI printed and how it ended.
struct CLIResult: CustomStringConvertible {
    var arguments: [String]
    var status: Int32
    var stdoutLines: [String]
    var stderr: String

    /// The single JSON document printed on stdout.
    func json(sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
        try #require(stdoutLines.count == 1, "expected one line on stdout: \(self)", sourceLocation: sourceLocation)
        return try JSONValue(parsing: stdoutLines[0])
    }

    /// Every line of stdout as JSON.
    func jsonLines() throws -> [JSONValue] { try stdoutLines.map { try JSONValue(parsing: $0) } }

    var description: String {
        "offline-store \(arguments.joined(separator: " ")) → \(status)\nstdout: \(stdoutLines.joined(separator: "\n"))\nstderr: \(stderr)"
    }
}

/// Lines read from a pipe, shared between the reading thread and any number of waiting tasks.
final class LineBuffer: Sendable {
    private struct State {
        var lines: [String] = []
        var finished = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// The lines so far.
    var lines: [String] { state.withLock { $0.lines } }

    func append(_ line: String) { change { $0.lines.append(line) } }

    /// Marks the end of the pipe.
    func finish() { change { $0.finished = true } }

    private func change(_ body: (inout State) -> Void) {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            body(&s)
            defer { s.waiters.removeAll() }
            return s.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits until a line satisfies `predicate` (returns it) or the pipe ends (returns nil).
    func first(where predicate: (String) -> Bool) async -> String? {
        var checked = 0
        while true {
            let (lines, finished) = state.withLock { ($0.lines, $0.finished) }
            if let line = lines[checked...].first(where: predicate) { return line }
            if finished { return nil }
            checked = lines.count
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let changed = state.withLock { s -> Bool in
                    if s.lines.count != checked || s.finished { return true }
                    s.waiters.append(continuation)
                    return false
                }
                if changed { continuation.resume() }
            }
        }
    }

    /// Waits for the end of the pipe and returns every line.
    func all() async -> [String] {
        _ = await first { _ in false }
        return lines
    }
}

/// A running `offline-store` process whose stdout and stderr lines arrive as they are printed.
///
/// Pipes are read on threads of their own (reads block), so tests never block the
/// cooperative pool; a watchdog kills a process that outlives `timeout` and the run fails.
/// The default (90 s) stays above the CLI's own request timeout (30 s) plus a retry, so a
/// loaded CI machine's slow Kinto is not mistaken for a hang (a 20 s watchdog killed a
/// `sync` in CI while 50 kill -9 runs and the fault proxies shared both cores).
final class CLIProcess: @unchecked Sendable {
    // @unchecked: `pid` is set in `init` before anything else sees the object and only read
    // afterwards; other state is in `Locked` values.
    let arguments: [String]
    let stdout = LineBuffer()
    let stderr = LineBuffer()
    private let pid: pid_t
    private let outcome = Outcome()
    private let exited = LineBuffer()

    /// How the process ended, set by the thread that reaps it and by the watchdog.
    private final class Outcome: Sendable {
        let status = Locked<Int32?>(nil)
        let timedOut = Locked(false)
    }

    struct TimedOut: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `executable` (default: the CLI) with `arguments`, through ``ChildSpawn``
    /// (not Foundation's `Process`, whose Linux spawn crashed the test process).
    /// With `stderrTerminal` (a ``PseudoTerminal``'s slave path) standard error goes to that
    /// terminal, not to ``stderr``, which stays empty.
    init(_ arguments: [String], environment: [String: String], directory: URL, timeout: Duration = .seconds(90),
         executable: URL? = nil, stderrTerminal: String? = nil) throws {
        self.arguments = arguments
        let child = try ChildSpawn(executable: try (executable ?? CLIBinary.url()).path, arguments: arguments,
                                   environment: environment, directory: directory.path,
                                   stderr: stderrTerminal.map { .terminal($0) } ?? .pipe)
        pid = child.pid
        Self.readLines(FileHandle(fileDescriptor: child.stdout, closeOnDealloc: true), into: stdout)
        if stderrTerminal == nil {
            Self.readLines(FileHandle(fileDescriptor: child.stderr, closeOnDealloc: true), into: stderr)
        } else {
            stderr.finish()
        }
        Thread { [outcome, exited] in
            let status = child.waitForExit()      // blocks this thread only
            outcome.status.withLock { $0 = status }
            exited.finish()
        }.start()
        let seconds = Double(timeout.components.seconds)
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [outcome, pid] in
            guard outcome.status.withLock({ $0 }) == nil else { return }
            outcome.timedOut.withLock { $0 = true }
            Signals.send(Signals.kill, to: pid)
        }
    }

    private static func readLines(_ handle: FileHandle, into buffer: LineBuffer) {
        Thread {
            var bytes: [UInt8] = []
            while true {
                let chunk = handle.availableData  // blocks until data or end of file
                if chunk.isEmpty { break }
                bytes.append(contentsOf: chunk)
                while let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                    buffer.append(String(decoding: bytes[..<newline], as: UTF8.self))
                    bytes.removeSubrange(...newline)
                }
            }
            if !bytes.isEmpty { buffer.append(String(decoding: bytes, as: UTF8.self)) }
            buffer.finish()
        }.start()
    }

    /// The process's pid.
    var processIdentifier: Int32 { pid }

    /// Sends a signal to the process (none once it was reaped: its pid may be reused).
    func send(_ signal: Int32) {
        guard outcome.status.withLock({ $0 }) == nil else { return }
        Signals.send(signal, to: pid)
    }

    /// Waits for the process to end and for its output; throws when the watchdog killed it.
    func finish() async throws -> CLIResult {
        let out = await stdout.all()
        let err = await stderr.all()
        _ = await exited.all()
        let result = CLIResult(arguments: arguments, status: outcome.status.withLock { $0 } ?? -1, stdoutLines: out,
                               stderr: err.joined(separator: "\n"))
        if outcome.timedOut.withLock({ $0 }) { throw TimedOut(description: "timed out and killed: \(result)") }
        return result
    }
}
