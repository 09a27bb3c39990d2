import Foundation
import OfflineStore

/// Refresh of a whole collection from a real Kinto against the official Python client.
///
/// `scripts/bench` starts a Kinto whose collections `r20000`, `r200000` … of bucket
/// `bench-refresh` were filled at start-up (`Benchmarks/kinto_bench_seed.py`). Each side
/// runs in a fresh process into a fresh file: ours `store.refresh()` with the default
/// `KintoBackend` settings (as `offline-store refresh` does), theirs `kinto-http`
/// `client.get_records()` plus `executemany` into sqlite3
/// (`Benchmarks/kinto_http_refresh_baseline.py`). Only the reading and storing are timed.
enum KintoRefreshBenchmarks {
    static let bucket = "bench-refresh"

    static func collection(_ count: Int) -> String { "r\(count)" }

    /// Child side: refreshes the collection into a fresh store at `path`.
    /// Prints "seconds pulled peak-kB".
    /// `pageSize` nil: the default.
    static func refresh(url: String, collection: String, path: String, pageSize: Int? = nil) async throws -> String {
        guard let server = URL(string: url) else { throw BenchError("bad Kinto URL \(url)") }
        var kinto = KintoBackend.Configuration(serverURL: server, bucket: bucket, auth: .basic(user: "bench", password: "bench"))
        if let pageSize { kinto.pageSize = pageSize }
        let backend = KintoBackend(configuration: kinto)
        var configuration = ObjectStore.Configuration()
        configuration.writeMode = .deferred
        let store = try ObjectStore(path: path, configuration: configuration, backend: backend)
        try store.register(CollectionDescriptor(collection))
        var pulled = 0
        let seconds = try await Timing.seconds { pulled = try await store.refresh().pulled }
        try store.close()
        return "\(seconds) \(pulled) \(try PeakMemory.highWaterKilobytes())"
    }

    /// Ours and kinto-http, alternating (and which goes first), each keeping its best of `rounds`.
    static func row(server: String, url: String, python: String, script: String, count: Int,
                    rounds: Int) throws -> BenchResult {
        let dir = try TemporaryDirectory("kinto-refresh")
        defer { dir.remove() }
        var ours = Double.infinity, theirs = Double.infinity, peak = 0
        for round in 0..<rounds {
            let runOurs = {
                try ChildProcess.runSelf(["refresh-kinto", url, collection(count), dir.file("ours\(round).sqlite")])
                    .split(separator: " ")
            }
            let runTheirs = {
                try ChildProcess.run(python, [script, url, bucket, collection(count), dir.file("py\(round).sqlite")])
                    .split(separator: " ")
            }
            let o: [Substring], t: [Substring]
            if round % 2 == 0 { o = try runOurs(); t = try runTheirs() } else { t = try runTheirs(); o = try runOurs() }
            guard o.count == 3, let oSeconds = Double(o[0]), let oPulled = Int(o[1]), let oPeak = Int(o[2]),
                  t.count == 2, let tSeconds = Double(t[0]), let tRecords = Int(t[1])
            else { throw BenchError("a refresh child printed \(o) / \(t)") }
            guard oPulled == count, tRecords == count else {
                throw BenchError("refresh of \(count): ours pulled \(oPulled), kinto-http read \(tRecords)")
            }
            ours = min(ours, oSeconds)
            theirs = min(theirs, tSeconds)
            peak = max(peak, oPeak)
        }
        let ratio = theirs / ours
        return BenchResult(scenario: "refresh of \(Format.grouped(count)) records from real Kinto (\(server)), fresh store",
                           ours: Format.fixed(ours, 2) + " s (peak RSS " + Format.megabytes(kilobytes: peak) + ")",
                           baseline: Format.fixed(theirs, 2) + " s (kinto-http get_records + sqlite3 executemany)",
                           ratio: Format.ratio(ratio), target: "≥ 1.0× (wall time ≤ kinto-http's)", passed: ratio >= 1.0)
    }
}
