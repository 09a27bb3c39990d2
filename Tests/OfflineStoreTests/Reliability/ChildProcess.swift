import Foundation

/// A child process whose standard output is read line by line, and which the reader may
/// kill with SIGKILL at the line of its choice: kill points are counted in lines the
/// child printed (real events), never in time.
struct ChildProcess {
    /// What to do after a line.
    enum Decision {
        /// Keep reading.
        case goOn
        /// Kill the child now, after waiting this many microseconds (a seeded jitter so
        /// the kill lands at varied instants after the event, not a synchronisation).
        case kill(afterMicroseconds: UInt32)
    }

    /// How the child ended and what it printed.
    struct Outcome: Sendable {
        var lines: [String] = []
        var killed = false
        var exitStatus: Int32 = 0
        var stderr = ""
    }

    var executable: URL
    var arguments: [String]

    /// Runs the child to its end (or kill) on a thread of its own; `decide` sees every line.
    func run(stderrPath: String, decide: @escaping @Sendable (String) -> Decision) async throws -> Outcome {
        try await offPool { try runBlocking(stderrPath: stderrPath, decide: decide) }
    }

    private func runBlocking(stderrPath: String, decide: (String) -> Decision) throws -> Outcome {
        let child = try Spawned([executable.path] + arguments, stderrPath: stderrPath)
        var outcome = Outcome()
        var buffer: [UInt8] = []
        while true {
            let chunk = child.read()  // blocks until data or end of file
            if chunk.isEmpty { break }
            buffer.append(contentsOf: chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                outcome.lines.append(line)
                guard !outcome.killed, case .kill(let delay) = decide(line) else { continue }
                if delay > 0 { Thread.sleep(forTimeInterval: Double(delay) / 1_000_000) }
                child.kill()
                outcome.killed = true  // read on to the end: lines printed before death count too
            }
        }
        outcome.exitStatus = child.wait()
        outcome.stderr = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        return outcome
    }

    /// An executable built by this package (`crash-writer`…): next to the test bundle,
    /// or in `.build/debug`.
    static func built(_ name: String) -> URL? {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var candidates = [bundle.deletingLastPathComponent().appendingPathComponent(name)]
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent(name))
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/\(name)"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The package's root directory.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }
}
