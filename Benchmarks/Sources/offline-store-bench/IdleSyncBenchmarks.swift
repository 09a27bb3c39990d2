import Foundation
import OfflineStore

/// The cost of an idle sync: a store of 20 collections, in sync with the server, syncs again
/// with nothing new (Docs/Scaling.md). Measured against the cluster with the default look-back
/// (5 s): right after the last change, while the look-back window is open; then, once it closed
/// (twice the look-back later), in the same process and in a fresh one.
enum IdleSyncBenchmarks {
    static let collections = 20
    static let recordsPerCollection = 50

    /// What one sync sent and received.
    struct Cost: Codable {
        var requests = 0, bytes = 0, emptyAnswers = 0
        init(_ counts: CountingTransport.Counts) {
            (requests, bytes, emptyAnswers) = (counts.requests, counts.bytes, counts.emptyAnswers)
        }
        var summary: String {
            "\(requests) requests, \(FleetBenchmarks.kilobytes(Double(bytes))), \(emptyAnswers) answered without a body"
        }
    }

    static func backend(url: URL, bucket: String, transport: any HTTPTransport) -> KintoBackend {
        KintoBackend(configuration: .init(serverURL: url, bucket: bucket, auth: .basic(user: "idle", password: "idle")),
                     transport: transport)
    }

    static func store(path: String, backend: KintoBackend) throws -> ObjectStore {
        var configuration = ObjectStore.Configuration()
        configuration.writeMode = .deferred
        let store = try ObjectStore(path: path, configuration: configuration, backend: backend)
        for c in 0..<collections { try store.register(CollectionDescriptor("idle\(c)")) }
        return store
    }

    /// Child side: opens the store in a fresh process, syncs once, prints the cost as JSON.
    static func freshSync(url: String, bucket: String, path: String) async throws -> String {
        guard let server = URL(string: url) else { throw BenchError("bad Kinto URL \(url)") }
        let counting = CountingTransport()
        let store = try store(path: path, backend: backend(url: server, bucket: bucket, transport: counting))
        defer { try? store.close() }
        let report = try await store.sync()
        guard report.pulled == 0, report.pushed == 0 else { throw BenchError("the idle sync moved records: \(report)") }
        return String(decoding: try JSONEncoder().encode(Cost(counting.current)), as: UTF8.self)
    }

    /// Idle syncs whose server CPU is measured, for the per-sync figure.
    static let cpuSyncs = 100

    static func rows(url: String, serverPIDs: [Int32]) async throws -> [BenchResult] {
        guard let server = URL(string: url) else { throw BenchError("bad Kinto URL \(url)") }
        let dir = try TemporaryDirectory("idle")
        defer { dir.remove() }
        let bucket = "idle" + UUID().uuidString.prefix(8).lowercased()
        let path = dir.file("store.sqlite")
        let counting = CountingTransport()
        let store = try store(path: path, backend: backend(url: server, bucket: bucket, transport: counting))
        try await store.transaction { tx in
            for c in 0..<collections {
                for i in 0..<recordsPerCollection { try tx.create(Fixtures.object(i), in: "idle\(c)") }
            }
        }
        _ = try await store.sync()
        let clock = ContinuousClock()
        let lastChange = clock.now
        func measuredSync() async throws -> Cost {
            let before = counting.current
            let report = try await store.sync()
            guard report.pulled == 0, report.pushed == 0 else { throw BenchError("the idle sync moved records: \(report)") }
            return Cost(counting.current - before)
        }
        let open = try await measuredSync()
        // The look-back window closes twice the look-back (5 s) after the last change.
        try await clock.sleep(until: lastChange + .seconds(11))
        let closing = try await measuredSync()
        let warm = try await measuredSync()
        let cpuBefore = try ServerProcessCPU.seconds(of: serverPIDs)
        let began = clock.now
        for _ in 0..<cpuSyncs { _ = try await measuredSync() }
        let elapsed = (clock.now - began).seconds
        let cpuPerSync = (try ServerProcessCPU.seconds(of: serverPIDs) - cpuBefore) / Double(cpuSyncs)
        try store.close()
        let freshLine = try ChildProcess.runSelf(["idle-sync", url, bucket, path])
        let fresh = try JSONDecoder().decode(Cost.self, from: Data(freshLine.utf8))
        let summary = try await changeSummary(server)

        // Collections whose last change came less than twice the look-back before their pull re-read it.
        let justAfter = "just after the fill (\(open.requests - open.emptyAnswers) of \(collections) look-back windows open): "
            + open.summary
        func row(_ name: String, _ cost: Cost) -> BenchResult {
            let perCollection = Double(cost.requests) / Double(collections)
            let small = cost.requests > 0 && cost.bytes / cost.requests <= 1024
            return BenchResult(scenario: "idle sync of \(collections) collections, nothing new (\(name))",
                               ours: cost.summary, baseline: justAfter,
                               ratio: Format.fixed(perCollection, 2) + " requests per collection",
                               target: "≤ 1 request per collection, ≤ 1 KB, no record list",
                               passed: perCollection <= 1 && cost.emptyAnswers == cost.requests && small)
        }
        return [
            row("same process", warm),
            row("fresh process", fresh),
            BenchResult(scenario: "idle sync of \(collections) collections, the sync that closes the look-back window",
                        ours: closing.summary, baseline: justAfter, ratio: "—",
                        target: "— (once after each change)", passed: nil),
            BenchResult(scenario: "idle sync of \(collections) collections: server CPU per sync (Kinto nodes + PostgreSQL), \(cpuSyncs) syncs",
                        ours: Format.fixed(cpuPerSync * 1000, 1) + " ms",
                        baseline: Format.fixed(elapsed / Double(cpuSyncs) * 1000, 1) + " ms wall per sync, one client",
                        ratio: "—", target: "— (the model in Docs/Scaling.md)", passed: nil),
            BenchResult(scenario: "idle sync: a change summary (one request for every collection)",
                        ours: summary, baseline: "—", ratio: "—", target: "— (used when offered)", passed: nil),
        ]
    }

    /// Whether the server announces kinto-changes' `changes` capability
    /// (`/buckets/monitor/collections/changes/records`).
    static func changeSummary(_ server: URL) async throws -> String {
        let reply = try await URLSessionTransport().send(HTTPRequest(method: "GET", url: server.appendingPathComponent("")))
        let root = try JSONValue(parsing: reply.body)
        let project = "Kinto \(root["project_version"]?.stringValue ?? "?")"
        guard root["capabilities"]?["changes"] != nil else { return "not offered by \(project) (no `changes` capability)" }
        return "offered by \(project); not used by the store"
    }
}
