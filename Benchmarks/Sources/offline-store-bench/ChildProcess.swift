import Foundation

/// Runs a scenario in a fresh process (this program, or another tool) and reads the one
/// figure it prints last: fresh processes give honest peak-memory and cold-open figures.
enum ChildProcess {
    /// Runs this program with `child` and the arguments; returns its last output line.
    static func runSelf(_ arguments: [String]) throws -> String {
        guard let executable = Bundle.main.executablePath else { throw BenchError("this program's path is unknown") }
        return try run(executable, ["child"] + arguments)
    }

    /// Runs `executable` with the arguments; returns its last output line. Fails on a non-zero exit.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw BenchError("\(executable) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus): \(text)")
        }
        guard let last = text.split(separator: "\n").last else { throw BenchError("\(executable) printed nothing") }
        return String(last).trimmingCharacters(in: .whitespaces)
    }

    /// The child side: runs the named scenario and prints its figure.
    static func serve(_ arguments: [String]) async throws {
        switch arguments.first {
        case "refresh-rss":
            guard arguments.count == 3, let count = Int(arguments[1]) else { throw BenchError("refresh-rss COUNT PATH") }
            print(try await RefreshBenchmarks.refreshForPeakMemory(count: count, path: arguments[2]))
        case "open-read":
            guard arguments.count == 3 else { throw BenchError("open-read PATH ID") }
            print(try StoreSizeBenchmarks.openAndRead(path: arguments[1], id: arguments[2]))
        case "flush-kinto":
            guard arguments.count == 4, let count = Int(arguments[2]) else { throw BenchError("flush-kinto URL COUNT COLLECTION") }
            print(try await KintoBenchmarks.flushCreates(url: arguments[1], count: count, collection: arguments[3]))
        case "refresh-kinto":
            guard arguments.count == 4 || arguments.count == 5 else { throw BenchError("refresh-kinto URL COLLECTION PATH [PAGE-SIZE]") }
            print(try await KintoRefreshBenchmarks.refresh(url: arguments[1], collection: arguments[2], path: arguments[3],
                                                           pageSize: arguments.count == 5 ? Int(arguments[4]) : nil))
        case "refresh-odata":
            guard arguments.count == 3 else { throw BenchError("refresh-odata URL PATH") }
            print(try await ODataBenchmarks.refresh(url: arguments[1], path: arguments[2]))
        case "flush-odata":
            guard arguments.count == 4, let count = Int(arguments[2]) else { throw BenchError("flush-odata URL COUNT PATH") }
            print(try await ODataBenchmarks.flush(url: arguments[1], count: count, path: arguments[3]))
        case "raw-gets":
            guard arguments.count == 4, let pageSize = Int(arguments[3]) else { throw BenchError("raw-gets URL COLLECTION PAGE-SIZE") }
            print(try await PageSizeBenchmarks.rawGets(url: arguments[1], collection: arguments[2], pageSize: pageSize))
        case "transport-floor":
            guard arguments.count == 2 else { throw BenchError("transport-floor URL") }
            print(try await PageSizeBenchmarks.transportFloor(url: arguments[1]))
        case "fleet-client":
            try await FleetClient.run(Array(arguments.dropFirst()))
        case "idle-sync":
            guard arguments.count == 4 else { throw BenchError("idle-sync URL BUCKET PATH") }
            print(try await IdleSyncBenchmarks.freshSync(url: arguments[1], bucket: arguments[2], path: arguments[3]))
        case "profile":
            // One side of a comparison, alone, for valgrind --tool=callgrind.
            guard arguments.count == 3, let count = Int(arguments[2]) else { throw BenchError("profile SCENARIO COUNT") }
            try await Profiling.run(arguments[1], count: count)
        default:
            throw BenchError("unknown child scenario \(arguments.first ?? "")")
        }
    }
}
