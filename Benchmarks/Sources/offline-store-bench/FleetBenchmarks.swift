import Foundation
import OfflineStore

/// The fleet rows: N client processes (``FleetClient``), each with its own store file, making
/// offline edits and syncing on a schedule against the Kinto cluster (scripts/cluster), then
/// one more sync each once all are done; every store must then equal the server, with nothing
/// lost, duplicated or missed. The same fleet runs against one node of the cluster alone.
enum FleetBenchmarks {
    /// The workload of one client: `rounds` rounds of `edits` offline edits, a sync after each,
    /// one round every `interval`, over `collections` shared collections.
    struct Workload {
        var rounds = 5
        var edits = 20
        var interval: Duration = .seconds(1)
        var collections = 4
    }

    /// One fleet run's outcome.
    struct Run {
        var clients: Int
        var convergeSeconds: Double
        var edits: Int
        var syncs: Int
        var requests: Int
        var requestBound: Int
        var bytes: Int
        var serverCPU: Double
        var firstSyncRequests: Double
        var lost = 0, duplicated = 0, missed = 0

        var requestsPerSync: Double { Double(requests) / Double(max(1, syncs)) }
        var boundPerSync: Double { Double(requestBound) / Double(max(1, syncs)) }
        var bytesPerSync: Double { Double(bytes) / Double(max(1, syncs)) }
        var cpuPer1000Edits: Double { serverCPU / Double(max(1, edits)) * 1000 }
        var isClean: Bool { lost == 0 && duplicated == 0 && missed == 0 }
        var tally: String { "lost \(lost), duplicated \(duplicated), missed \(missed)" }
    }

    /// This program's own path, for the niced children (asking the system for the running
    /// executable would name `nice`).
    static let selfPath = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path

    /// Runs the fleet of `clients` against `url` in a bucket of its own.
    static func run(clients: Int, url: String, serverPIDs: [Int32], workload: Workload = Workload()) async throws -> Run {
        guard let server = URL(string: url) else { throw BenchError("bad Kinto URL \(url)") }
        let bucket = "fleet" + UUID().uuidString.prefix(8).lowercased()
        let names = FleetClient.collectionNames(workload.collections)
        // The bucket and collections first: clients creating them all at once would race.
        let setup = KintoBackend(configuration: .init(serverURL: server, bucket: bucket, auth: .basic(user: "fleet", password: "fleet")))
        for name in names { try await setup.prepare(collection: name) }

        let dir = try TemporaryDirectory("fleet")
        defer { dir.remove() }
        let cpuBefore = try ServerProcessCPU.seconds(of: serverPIDs)
        var children: [(process: Process, input: Pipe, output: LineReader, path: String)] = []
        for client in 0..<clients {
            let settings = try FleetClient.Settings([url, bucket, String(client), dir.file("client\(client).sqlite"),
                                                     String(workload.rounds), String(workload.edits),
                                                     String(Int(workload.interval.seconds * 1000)), String(workload.collections)])
            // Niced: on one machine the clients must not take the servers' CPU. A client waiting on
            // an answer keeps FoundationNetworking's dispatch threads waking (thousands of context
            // switches a second per waiting request on Linux), and starved servers answer slower still.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/nice")
            process.arguments = ["-n", "19", selfPath, "child", "fleet-client"] + settings.arguments
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            children.append((process, input, LineReader(output.fileHandleForReading), settings.path))
        }
        for child in children {
            guard child.output.line() == "edited" else { throw BenchError("a fleet client failed while editing") }
        }
        let clock = ContinuousClock()
        let quiet = clock.now
        for child in children { child.input.fileHandleForWriting.write(Data("converge\n".utf8)) }
        var reports: [FleetClient.Report] = []
        for child in children {
            guard let line = child.output.line(),
                  let report = try? JSONDecoder().decode(FleetClient.Report.self, from: Data(line.utf8)) else {
                throw BenchError("a fleet client failed while converging")
            }
            reports.append(report)
        }
        let converged = (clock.now - quiet).seconds
        for child in children {
            child.process.waitUntilExit()
            guard child.process.terminationStatus == 0 else { throw BenchError("a fleet client exited with \(child.process.terminationStatus)") }
        }
        let cpu = try ServerProcessCPU.seconds(of: serverPIDs) - cpuBefore

        var run = Run(clients: clients, convergeSeconds: converged, edits: reports.map(\.edits).reduce(0, +),
                      syncs: reports.map(\.syncs).reduce(0, +), requests: reports.map(\.requests).reduce(0, +),
                      requestBound: reports.map(\.requestBound).reduce(0, +),
                      bytes: reports.map(\.bytes).reduce(0, +), serverCPU: cpu,
                      firstSyncRequests: Double(reports.map(\.firstSyncRequests).reduce(0, +)) / Double(max(1, clients)))
        try await check(&run, paths: children.map(\.path), server: setup, names: names, collections: workload.collections)
        BenchMain.progress("… \(clients) clients converged in \(Format.fixed(converged, 2)) s; \(run.tally); "
            + "\(Format.fixed(run.requestsPerSync, 1)) requests and \(kilobytes(run.bytesPerSync)) per sync; "
            + "server CPU \(Format.fixed(cpu, 1)) s for \(run.edits) edits")
        return run
    }

    /// Compares every store and every client's expected records with the server's.
    private static func check(_ run: inout Run, paths: [String], server: KintoBackend, names: [String],
                              collections: Int) async throws {
        var remote: [String: JSONValue] = [:]
        var versions: [String: String] = [:]
        for name in names {
            var continuation: PullContinuation?
            repeat {
                let page = try await server.pull(PullRequest(collection: name, continuation: continuation, hints: .init(needsDeletions: false)))
                for change in page.changes {
                    guard let record = change.record else { continue }
                    remote["\(name)/\(change.id)"] = record
                    versions["\(name)/\(change.id)"] = change.version
                }
                continuation = page.next
            } while continuation != nil
        }
        var expectedLive = Set<String>()
        for path in paths {
            let expected = try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: path + ".expected.json")))
            for (key, value) in expected.objectValue ?? [:] {
                if value == .null {
                    if remote[key] != nil { run.lost += 1 }       // a delete that did not take
                } else {
                    expectedLive.insert(key)
                    if remote[key] != value { run.lost += 1 }     // an edit the server does not hold
                }
            }
            let store = try FleetClient.store(path: path, backend: nil, collections: collections)
            defer { try? store.close() }
            var local: [String: JSONValue] = [:]
            for name in names {
                for value in try store.collection(name).findAll() { local["\(name)/\(value["id"]?.stringValue ?? "?")"] = value }
            }
            let differing = Set(local.keys).union(remote.keys).filter { local[$0] != remote[$0] }
            run.missed += differing.count
            for key in differing.sorted().prefix(5) {
                let collection = String(key.prefix { $0 != "/" })
                BenchMain.progress("MISSED in \(URL(fileURLWithPath: path).lastPathComponent): \(key) local "
                    + "\(local[key]?.serialized() ?? "absent"), server \(remote[key]?.serialized() ?? "absent") "
                    + "(last_modified \(versions[key] ?? "—")), the store's cursor \(storedCursor(path, collection) ?? "none")")
            }
        }
        run.duplicated = Set(remote.keys).subtracting(expectedLive).count
    }

    /// The rows: time to converge against N on the cluster, per-sync costs, server CPU, and the
    /// largest fleet against one node alone.
    static func rows(clusterURL: String, nodeURL: String, serverPIDs: [Int32], sizes: [Int]) async throws -> [BenchResult] {
        var runs: [Run] = []
        for n in sizes {
            BenchMain.progress("running a fleet of \(n) client processes against the cluster")
            runs.append(try await run(clients: n, url: clusterURL, serverPIDs: serverPIDs))
        }
        guard let one = runs.first, let largest = runs.last else { return [] }
        BenchMain.progress("running a fleet of \(largest.clients) client processes against one node")
        let single = try await run(clients: largest.clients, url: nodeURL, serverPIDs: serverPIDs)
        let workload = Workload()
        var results: [BenchResult] = []
        for run in runs {
            let growth = run.convergeSeconds / max(one.convergeSeconds, 0.001)
            results.append(BenchResult(
                scenario: "fleet of \(run.clients) (cluster): time to converge once all are done editing (\(Format.grouped(run.edits)) edits)",
                ours: Format.fixed(run.convergeSeconds, 2) + " s; " + run.tally,
                baseline: "\(Format.fixed(one.convergeSeconds, 2)) s with 1 client",
                ratio: Format.ratio(growth), target: "nothing lost, ≤ N× the 1-client time",
                passed: run.isClean && growth <= Double(run.clients)))
        }
        results.append(BenchResult(
            scenario: "fleet of \(largest.clients) (cluster): requests and bytes per scheduled sync per client (\(workload.edits) edits, \(workload.collections) collections)",
            ours: Format.fixed(largest.requestsPerSync, 1) + " requests, " + kilobytes(largest.bytesPerSync)
                + " (a process's first sync: \(Format.fixed(largest.firstSyncRequests, 1)) requests)",
            baseline: "bound \(Format.fixed(largest.boundPerSync, 1)) requests; 1 client: \(Format.fixed(one.requestsPerSync, 1)) "
                + "requests, \(kilobytes(one.bytesPerSync))",
            ratio: Format.ratio(largest.requestsPerSync / max(largest.boundPerSync, 1)) + " of the bound",
            target: "≤ the bound: a batch per run of one collection's edits in the queue, a pull per collection",
            passed: largest.requests <= largest.requestBound))
        results.append(BenchResult(
            scenario: "fleet of \(largest.clients) (cluster): server CPU per 1,000 edits (Kinto nodes + PostgreSQL)",
            ours: Format.fixed(largest.cpuPer1000Edits, 2) + " s",
            baseline: "\(Format.fixed(single.cpuPer1000Edits, 2)) s on one node",
            ratio: Format.ratio(largest.cpuPer1000Edits / max(single.cpuPer1000Edits, 0.001)),
            target: "≤ 1.25× one node", passed: largest.cpuPer1000Edits <= 1.25 * single.cpuPer1000Edits))
        results.append(BenchResult(
            scenario: "cluster against one node: fleet of \(largest.clients), time to converge",
            ours: Format.fixed(largest.convergeSeconds, 2) + " s (cluster)",
            baseline: Format.fixed(single.convergeSeconds, 2) + " s (one node); " + single.tally,
            ratio: Format.ratio(single.convergeSeconds / max(largest.convergeSeconds, 0.001)),
            target: "≥ 0.9× and nothing lost", passed: single.isClean && largest.isClean
                && single.convergeSeconds / max(largest.convergeSeconds, 0.001) >= 0.9))
        return results
    }
}

extension FleetBenchmarks {
    static func kilobytes(_ bytes: Double) -> String { Format.fixed(bytes / 1024, 1) + " KB" }
}

extension FleetBenchmarks {
    /// A store file's pull cursor of `collection`, read with SQLite directly (diagnostics only).
    static func storedCursor(_ path: String, _ collection: String) -> String? {
        guard let db = try? RawSQLite(path: path),
              let statement = try? db.prepare("SELECT cursor FROM collections WHERE name = ?") else { return nil }
        try? statement.bind(1, collection)
        return statement.text()
    }
}

/// Reads a child's standard output line by line.
final class LineReader {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) { self.handle = handle }

    /// The next line without its newline, or nil at the end of the output.
    func line() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let more = handle.availableData
            if more.isEmpty { return nil }
            buffer.append(more)
        }
    }
}
