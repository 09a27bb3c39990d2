import Foundation

/// The benchmark program: runs every scenario and prints one Markdown table
/// (scenario, ours, baseline measured in the same run, ratio, target, pass/fail).
///
///     offline-store-bench --kinto-url URL --python .venv/bin/python --script Benchmarks/kinto_http_baseline.py
///         [--refresh-kinto NAME=URL]… [--refresh-counts "20000 200000"]
///         [--cluster-url URL --cluster-node URL --cluster-pids "PID…"] [--fleet-sizes "1 4 16 32"]
///         [--odata MODE=URL]… [--odata-python PATH] [--odata-script Benchmarks/odata_baseline.py]
///     offline-store-bench child SCENARIO ARGS…      (a scenario in a fresh process)
///
/// Progress goes to standard error; the table alone to standard output.
@main
struct BenchMain {
    /// A synchronous entry point that blocks on the async work: an async `main` parks the
    /// main thread in libdispatch's `sigsuspend`, which valgrind 3.19 cannot run.
    static func main() {
        let done = DispatchSemaphore(value: 0)
        // Detached: `main` is on the main actor, whose thread waits below.
        Task.detached {
            await run()
            done.signal()
        }
        done.wait()
    }

    static func run() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            if arguments.first == "child" {
                try await ChildProcess.serve(Array(arguments.dropFirst()))
            } else {
                let options = try Options(arguments)
                print(BenchResult.table(try await runAll(options)))
            }
        } catch {
            FileHandle.standardError.write(Data("offline-store-bench: \(error)\n".utf8))
            exit(1)
        }
    }

    struct Options {
        var kintoURL: String?
        var python = ".venv/bin/python"
        var script = "Benchmarks/kinto_http_baseline.py"
        var refreshScript = "Benchmarks/kinto_http_refresh_baseline.py"
        /// Seeded Kintos for the refresh rows, e.g. ("memory", URL), ("PostgreSQL", URL).
        var refreshKintos: [(name: String, url: String)] = []
        var refreshCounts = [20_000]
        var only: Set<String> = []
        /// The Kinto cluster (scripts/cluster), one of its nodes, and its server processes.
        var clusterURL: String?
        var clusterNode: String?
        var clusterPIDs: [Int32] = []
        var fleetSizes = [1, 4, 16, 32]
        /// The seeded OData fixtures, e.g. ("delta", URL), ("plain", URL), and the baseline script.
        var odataServers: [(mode: String, url: String)] = []
        var odataScript = "Benchmarks/odata_baseline.py"
        var odataPython = ".build-odata/venv/bin/python"

        init(_ arguments: [String]) throws {
            var it = arguments.makeIterator()
            while let a = it.next() {
                switch a {
                case "--kinto-url": kintoURL = it.next()
                case "--python": python = it.next() ?? python
                case "--script": script = it.next() ?? script
                case "--only": only.insert(it.next() ?? "")
                case "--refresh-script": refreshScript = it.next() ?? refreshScript
                case "--refresh-kinto":
                    let value = it.next() ?? ""
                    guard let eq = value.firstIndex(of: "=") else { throw BenchError("--refresh-kinto NAME=URL") }
                    refreshKintos.append((String(value[..<eq]), String(value[value.index(after: eq)...])))
                case "--refresh-counts":
                    refreshCounts = (it.next() ?? "").split(separator: " ").compactMap { Int($0) }
                case "--cluster-url": clusterURL = it.next()
                case "--cluster-node": clusterNode = it.next()
                case "--cluster-pids": clusterPIDs = (it.next() ?? "").split(separator: " ").compactMap { Int32($0) }
                case "--odata":
                    let value = it.next() ?? ""
                    guard let eq = value.firstIndex(of: "=") else { throw BenchError("--odata MODE=URL") }
                    odataServers.append((String(value[..<eq]), String(value[value.index(after: eq)...])))
                case "--odata-python": odataPython = it.next() ?? odataPython
                case "--odata-script": odataScript = it.next() ?? odataScript
                case "--fleet-sizes": fleetSizes = (it.next() ?? "").split(separator: " ").compactMap { Int($0) }
                default: throw BenchError("unknown argument \(a)")
                }
            }
        }

        func wants(_ name: String) -> Bool { only.isEmpty || only.contains(name) }
    }

    static func progress(_ text: String) {
        FileHandle.standardError.write(Data("bench: \(text)\n".utf8))
    }

    static func runAll(_ o: Options) async throws -> [BenchResult] {
        var results: [BenchResult] = []
        func add(_ r: BenchResult) {
            progress("\(r.scenario): \(r.ours) vs \(r.baseline) → \(r.ratio) \(r.verdict)")
            results.append(r)
        }
        if o.wants("single") {
            progress("durable single edits")
            try await LocalEditBenchmarks.singleEdits(count: 2_000, rounds: 5).forEach(add)
        }
        if o.wants("bulk") {
            progress("bulk edits")
            try await LocalEditBenchmarks.bulkEdits(count: 100_000, rounds: 3).forEach(add)
        }
        if o.wants("typed") {
            progress("typed edits and reads against the JSON API")
            add(try await TypedModelBenchmarks.edits(count: 2_000, rounds: 5))
            add(try await TypedModelBenchmarks.reads(count: 20_000, rounds: 5))
        }
        if o.wants("migration") {
            progress("stored migration of 100k objects against one SQL UPDATE")
            add(try await MigrationBenchmarks.storedMigration(count: 100_000, rounds: 2))
        }
        if o.wants("ingest") { progress("refresh ingest"); add(try await RefreshBenchmarks.ingest(count: 200_000, rounds: 2)) }
        if o.wants("large") {
            let dir = try TemporaryDirectory("large")
            defer { dir.remove() }
            progress("refresh of 100k objects (fresh process)")
            let small = try kilobytes(ChildProcess.runSelf(["refresh-rss", "100000", dir.file("small.sqlite")]))
            progress("refresh of 1M objects (fresh process; builds the 1M-object store)")
            let large = try kilobytes(ChildProcess.runSelf(["refresh-rss", "1000000", dir.file("large.sqlite")]))
            let growth = Double(large) / Double(small)
            add(BenchResult(scenario: "refresh of 1,000,000 objects: peak RSS (fresh process)",
                            ours: Format.megabytes(kilobytes: large),
                            baseline: Format.megabytes(kilobytes: small) + " at 100,000 objects",
                            ratio: Format.ratio(growth), target: "< 100 MB and ≤ 1.3×",
                            passed: large < 100 * 1024 && growth <= 1.3))
            progress("find by indexed field")
            add(try StoreSizeBenchmarks.findRow(path: dir.file("large.sqlite"), objects: 1_000_000))
            progress("open and read one")
            add(try StoreSizeBenchmarks.openRow(path: dir.file("large.sqlite"), objects: 1_000_000))
        }
        if let url = o.kintoURL {
            if o.wants("flush") {
                // The memory backend is the main Kinto; PostgreSQL is the refresh rows' Kinto, when started.
                let servers = [("memory", url)] + o.refreshKintos.filter { $0.name.hasPrefix("PostgreSQL") }.map { ($0.name, $0.url) }
                for (name, serverURL) in servers {
                    progress("flush of 5,000 creates to Kinto (\(name)), ours, kinto-http and raw HTTP (fresh processes)")
                    try KintoBenchmarks.flushRow(server: name, url: serverURL, python: o.python, script: o.script,
                                                 count: 5_000, rounds: 2).forEach(add)
                }
            }
            if o.wants("coalesce") {
                progress("coalesced flush")
                add(try await KintoBenchmarks.coalescedRow(url: url, objects: 100, edits: 10_000))
            }
        } else {
            progress("no --kinto-url: the Kinto scenarios are skipped")
        }
        if o.wants("odata") {
            for server in o.odataServers {
                // Five rounds (ten pairs for the flush): the fixture's own time for the same
                // requests varies by 10-25 % from one run to the next, more than the clients differ.
                progress("refresh of \(ODataBenchmarks.refreshCount) Tasks from the OData fixture (\(server.mode) mode): ours, odatapy's client, raw GETs")
                try ODataBenchmarks.refreshRows(mode: server.mode, url: server.url, python: o.odataPython, script: o.odataScript,
                                                rounds: 5).forEach(add)
                progress("flush of \(ODataBenchmarks.flushCount) creates to the OData fixture (\(server.mode) mode): ours and raw $batch")
                add(try ODataBenchmarks.flushRow(mode: server.mode, url: server.url, python: o.odataPython, script: o.odataScript,
                                                 batch: ODataBenchmarks.batchSize,
                                                 rounds: 10))
            }
            if o.odataServers.isEmpty { progress("no --odata: the OData scenarios are skipped") }
        }
        if o.wants("refresh") {
            for count in o.refreshCounts {
                for kinto in o.refreshKintos {
                    progress("refresh of \(count) records from Kinto (\(kinto.name)), ours and kinto-http (fresh processes)")
                    add(try KintoRefreshBenchmarks.row(server: kinto.name, url: kinto.url, python: o.python,
                                                       script: o.refreshScript, count: count, rounds: count > 50_000 ? 2 : 5))
                }
            }
        }
        if o.wants("pagesize"), let memory = o.refreshKintos.first(where: { $0.name == "memory" }) {
            guard o.refreshCounts.contains(20_000), o.refreshCounts.contains(200_000) else {
                throw BenchError("the page size rows need the seeded collections of 20,000 and 200,000 records")
            }
            try PageSizeBenchmarks.rows(url: memory.url, rounds: 5).forEach(add)
        }
        if o.wants("idle") || o.wants("fleet") {
            guard let cluster = o.clusterURL, let node = o.clusterNode, !o.clusterPIDs.isEmpty else {
                throw BenchError("the idle and fleet rows need --cluster-url, --cluster-node and --cluster-pids")
            }
            if o.wants("idle") {
                progress("measuring idle syncs of 20 collections against the cluster (waits 11 s for the look-back window)")
                try await IdleSyncBenchmarks.rows(url: cluster, serverPIDs: o.clusterPIDs).forEach(add)
            }
            if o.wants("fleet") {
                try await FleetBenchmarks.rows(clusterURL: cluster, nodeURL: node, serverPIDs: o.clusterPIDs,
                                               sizes: o.fleetSizes).forEach(add)
            }
        }
        return results
    }

    static func kilobytes(_ text: String) throws -> Int {
        guard let kb = Int(text) else { throw BenchError("expected kilobytes, got \(text)") }
        return kb
    }
}
