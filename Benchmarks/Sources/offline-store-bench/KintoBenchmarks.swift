import Foundation
import OfflineStore

/// Scenarios against the real Kinto that `scripts/bench` starts (memory backend).
enum KintoBenchmarks {
    static let bucket = "bench"

    static func backend(url: String, transport: any HTTPTransport = URLSessionTransport()) throws -> KintoBackend {
        guard let server = URL(string: url) else { throw BenchError("bad Kinto URL \(url)") }
        return KintoBackend(configuration: .init(serverURL: server, bucket: bucket,
                                                 auth: .basic(user: "bench", password: "bench")),
                            transport: transport)
    }

    /// A deferred-mode store in `dir` syncing with Kinto, with `collection` registered.
    static func store(in dir: TemporaryDirectory, backend: KintoBackend, collection: String) throws -> ObjectStore {
        var configuration = ObjectStore.Configuration()
        configuration.writeMode = .deferred
        let store = try ObjectStore(path: dir.file("store.sqlite"), configuration: configuration, backend: backend)
        try store.register(CollectionDescriptor(collection))
        return store
    }

    /// Child side: queues `count` creates (not timed), then times the flush. Returns seconds.
    static func flushCreates(url: String, count: Int, collection: String) async throws -> Double {
        let dir = try TemporaryDirectory("flush")
        defer { dir.remove() }
        let store = try store(in: dir, backend: try backend(url: url), collection: collection)
        try await store.transaction { tx in
            for i in 0..<count { try tx.create(Fixtures.object(i), in: collection) }
        }
        var pushed = 0
        let seconds = try await Timing.seconds { pushed = try await store.flush().pushed }
        guard pushed == count else { throw BenchError("flush pushed \(pushed) of \(count)") }
        return seconds
    }

    /// Ours and kinto-http (the official Python client, `batch()`), each in a fresh process,
    /// each into its own new collection; the best of `rounds` alternating rounds.
    static func flushRow(server: String, url: String, python: String, script: String, count: Int,
                         rounds: Int) throws -> [BenchResult] {
        var ours = Double.infinity, theirs = Double.infinity, raw = Double.infinity
        let run = UUID().uuidString.prefix(8).lowercased()
        let rawScript = URL(fileURLWithPath: script).deletingLastPathComponent().appendingPathComponent("raw_http_flush_baseline.py").path
        // Kinto's memory backend slows down as it holds more records (its permission backend
        // scans them all), so every run's collection is deleted after it, and the sides take
        // turns going first: each run starts from the same server.
        for round in 0..<rounds {
            let sides: [() throws -> Void] = [
                { ours = min(ours, try runFlush(url: url, collection: "ours\(run)\(round)") {
                    try ChildProcess.runSelf(["flush-kinto", url, String(count), "ours\(run)\(round)"]) }) },
                { theirs = min(theirs, try runFlush(url: url, collection: "py\(run)\(round)") {
                    try ChildProcess.run(python, [script, url, String(count), "py\(run)\(round)", bucket]) }) },
                { raw = min(raw, try runFlush(url: url, collection: "raw\(run)\(round)") {
                    try ChildProcess.run(python, [rawScript, url, String(count), "raw\(run)\(round)", bucket]) }) },
            ]
            for i in 0..<sides.count { try sides[(i + round) % sides.count]() }
        }
        // The target is against the raw-HTTP limit, which no client can pass (Performance.md,
        // "Flush: at the server's pace"); kinto-http stays beside it as the reference client.
        let ratio = raw / ours
        return [
            BenchResult(scenario: "flush of \(Format.grouped(count)) creates to real Kinto (\(server)), fresh process, "
                        + "vs the raw-HTTP limit (its batches of 25 sent back to back, bodies built beforehand)",
                        ours: Format.rate(Double(count) / ours, "records"),
                        baseline: "raw \(Format.rate(Double(count) / raw, "records"))",
                        ratio: Format.ratio(ratio), target: "≥ 0.95×", passed: ratio >= 0.95),
            BenchResult(scenario: "↳ same, against kinto-http (`batch()`, fresh process)",
                        ours: Format.rate(Double(count) / ours, "records"),
                        baseline: "\(Format.rate(Double(count) / theirs, "records")) (kinto-http reaches \(Format.ratio(raw / theirs)) of the raw limit)",
                        ratio: Format.ratio(theirs / ours) + " kinto-http", target: "— (reference client)", passed: nil),
        ]
    }

    /// Runs one flush child (which prints its seconds), then deletes its collection.
    private static func runFlush(url: String, collection: String, _ child: () throws -> String) throws -> Double {
        guard let seconds = Double(try child()) else { throw BenchError("a flush child printed no number") }
        try deleteCollection(url: url, collection: collection)
        return seconds
    }

    /// `DELETE /buckets/bench/collections/NAME`, waiting for the answer.
    private static func deleteCollection(url: String, collection: String) throws {
        guard let target = URL(string: "\(url)/buckets/\(bucket)/collections/\(collection)") else {
            throw BenchError("bad Kinto URL \(url)")
        }
        let status = try ChildProcess.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "bench:bench",
                                                            "-X", "DELETE", target.absoluteString])
        guard status == "200" else { throw BenchError("deleting collection \(collection) answered \(status)") }
    }

    /// 10,000 edits spread over 100 objects, then one flush: each object must be written once.
    static func coalescedRow(url: String, objects: Int, edits: Int) async throws -> BenchResult {
        let dir = try TemporaryDirectory("coalesce")
        defer { dir.remove() }
        let counter = CountingTransport()
        let collection = "coalesce" + UUID().uuidString.prefix(8).lowercased()
        let store = try store(in: dir, backend: try backend(url: url, transport: counter), collection: collection)
        let items = store.collection(collection)
        for i in 0..<objects { try await items.create(Fixtures.object(i)) }
        for e in objects..<edits {
            try await items.patch(Fixtures.id(e % objects), ["n": .int(Int64(e))])
        }
        let before = counter.current
        let report = try await store.flush()
        let after = counter.current
        let writes = after.writes - before.writes
        guard report.pushed == objects else { throw BenchError("coalesced flush pushed \(report.pushed)") }
        return BenchResult(scenario: "\(Format.grouped(edits)) edits on \(objects) objects, then flush",
                           ours: "\(writes) record writes in \(after.requests - before.requests) HTTP requests",
                           baseline: "—", ratio: "—", target: "exactly \(objects) write requests", passed: writes == objects)
    }
}
