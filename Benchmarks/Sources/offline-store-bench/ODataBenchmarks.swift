import Foundation
import OfflineStore

/// Refresh and flush against the OData fixture (`scripts/odata-server`, Docs/ODataFacts.md),
/// in the mode `scripts/bench` started it in, against a Python OData client and raw HTTP
/// measured in the same run.
///
/// `scripts/bench --only odata` starts a delta-mode and a plain-mode server, each with
/// `ODataBenchmarks.refreshCount` Tasks (`Benchmarks/odata_seed.py`). Each side runs in a
/// fresh process: ours `store.refresh()` into a fresh file with the default `ODataBackend`
/// settings, theirs every page through odatapy's client (`read-client`) or by raw GETs
/// (`read-raw`, `Benchmarks/odata_baseline.py`), which read and parse but store nothing.
/// The flush row creates Tasks: ours one `store.flush()`, the limit the same JSON `$batch`
/// requests built beforehand and sent back to back (`create-batch`).
enum ODataBenchmarks {
    static let refreshCount = 20_000
    static let flushCount = 5_000
    /// The operations our flush sends per `$batch` (the backend's default), which the raw limit sends too.
    static let batchSize = ODataBackend.Configuration(serviceRoot: URL(fileURLWithPath: "/")).maxBatchSize
    static let writer = ["Authorization": "Basic " + Data("writer:writer".utf8).base64EncodedString()]

    static func backend(_ url: String) throws -> ODataBackend {
        guard let root = URL(string: url) else { throw BenchError("bad OData service root \(url)") }
        return ODataBackend(configuration: .init(serviceRoot: root, headers: writer))
    }

    static func store(_ path: String, _ url: String) throws -> ObjectStore {
        var configuration = ObjectStore.Configuration()
        configuration.writeMode = .deferred
        let store = try ObjectStore(path: path, configuration: configuration, backend: try backend(url))
        try store.register(CollectionDescriptor("Tasks"))
        return store
    }

    /// Child side: refreshes Tasks into a fresh store at `path`. Prints "seconds pulled peak-kB".
    static func refresh(url: String, path: String) async throws -> String {
        let store = try store(path, url)
        var pulled = 0
        let seconds = try await Timing.seconds { pulled = try await store.refresh().pulled }
        try store.close()
        return "\(seconds) \(pulled) \(try PeakMemory.highWaterKilobytes())"
    }

    /// Child side: creates `count` Tasks in a fresh store at `path` and flushes them. Prints the seconds.
    static func flush(url: String, count: Int, path: String) async throws -> String {
        let store = try store(path, url)
        try await store.transaction { tx in
            for n in 0..<count {
                try tx.create(["id": .string(UUID().uuidString.lowercased()), "Title": .string("Created \(n)"), "Done": false],
                              in: "Tasks")
            }
        }
        var pushed = 0
        let seconds = try await Timing.seconds { pushed = try await store.flush().pushed }
        try store.close()
        guard pushed == count else { throw BenchError("the OData flush pushed \(pushed) of \(count)") }
        return "\(seconds)"
    }

    /// The refresh rows of one mode: ours against odatapy's client (the target) and raw GETs,
    /// alternating which goes first, each keeping its best of `rounds`.
    static func refreshRows(mode: String, url: String, python: String, script: String, rounds: Int) throws -> [BenchResult] {
        let dir = try TemporaryDirectory("odata-refresh")
        defer { dir.remove() }
        var ours = Double.infinity, client = Double.infinity, raw = Double.infinity, peak = 0
        for round in 0..<rounds {
            let sides: [() throws -> Void] = [
                {
                    let o = try ChildProcess.runSelf(["refresh-odata", url, dir.file("ours\(round).sqlite")]).split(separator: " ")
                    guard o.count == 3, let seconds = Double(o[0]), let pulled = Int(o[1]), let kB = Int(o[2]),
                          pulled == refreshCount else { throw BenchError("our OData refresh printed \(o)") }
                    ours = min(ours, seconds)
                    peak = max(peak, kB)
                },
                { client = min(client, try baseline(python, [script, "read-client", url, "Tasks"], entities: refreshCount)) },
                { raw = min(raw, try baseline(python, [script, "read-raw", url, "Tasks"], entities: refreshCount)) },
            ]
            for i in 0..<sides.count { try sides[(i + round) % sides.count]() }
        }
        return [
            BenchResult(scenario: "refresh of \(Format.grouped(refreshCount)) entities from the OData fixture (\(mode) mode), "
                        + "fresh store, vs odatapy's client reading the same set (the service's pages, one at a time)",
                        ours: Format.fixed(ours, 2) + " s (peak RSS " + Format.megabytes(kilobytes: peak) + ")",
                        baseline: Format.fixed(client, 2) + " s (odatapy ODataClient.iter_pages, nothing stored)",
                        ratio: Format.ratio(client / ours), target: "≥ 1.0×", passed: client / ours >= 1.0),
            BenchResult(scenario: "↳ same, against raw GETs of the service's pages (http.client + json.loads, one connection, nothing stored)",
                        ours: Format.fixed(ours, 2) + " s", baseline: Format.fixed(raw, 2) + " s",
                        ratio: Format.ratio(raw / ours), target: "— (reference)", passed: nil),
        ]
    }

    /// The flush row of one mode: ours against the raw `$batch` limit, back to back in each
    /// round (alternating which goes first), the median of the rounds' ratios. Each pair runs
    /// within seconds, so the fixture's drift over the run (it slows as the set grows, and the
    /// machine's speed moves from minute to minute) meets both sides of a pair alike.
    static func flushRow(mode: String, url: String, python: String, script: String, batch: Int, rounds: Int) throws -> BenchResult {
        let dir = try TemporaryDirectory("odata-flush")
        defer { dir.remove() }
        var ours: [Double] = [], raw: [Double] = []
        for round in 0..<rounds {
            let sides: [() throws -> Void] = [
                {
                    guard let seconds = Double(try ChildProcess.runSelf(["flush-odata", url, String(flushCount), dir.file("f\(round).sqlite")]))
                    else { throw BenchError("our OData flush printed no number") }
                    ours.append(seconds)
                },
                { raw.append(try baseline(python, [script, "create-batch", url, String(flushCount), String(batch)], entities: flushCount)) },
            ]
            for i in 0..<sides.count { try sides[(i + round) % sides.count]() }
        }
        let ratio = Timing.median(zip(raw, ours).map { $0 / $1 })
        let each = zip(raw, ours).map { Format.fixed($0 / $1, 2) }.joined(separator: " ")
        return BenchResult(scenario: "flush of \(Format.grouped(flushCount)) creates to the OData fixture (\(mode) mode), fresh process, "
                           + "vs the raw-HTTP limit (the same $batch requests of \(batch), bodies built beforehand), "
                           + "median of \(rounds) back-to-back pairs (\(each))",
                           ours: Format.rate(Double(flushCount) / Timing.median(ours), "records"),
                           baseline: "raw \(Format.rate(Double(flushCount) / Timing.median(raw), "records"))",
                           ratio: Format.ratio(ratio), target: "≥ 0.9×", passed: ratio >= 0.9)
    }

    /// Runs a baseline that prints "entities requests seconds"; checks the count, returns the seconds.
    private static func baseline(_ python: String, _ arguments: [String], entities: Int) throws -> Double {
        let parts = try ChildProcess.run(python, arguments).split(separator: " ")
        guard parts.count == 3, Int(parts[0]) == entities, let seconds = Double(parts[2]) else {
            throw BenchError("\(arguments.prefix(2).joined(separator: " ")) printed \(parts)")
        }
        return seconds
    }
}
