import Foundation
import OfflineStore

/// `bench: page size` rows, on the seeded Kinto (memory backend) of the refresh rows.
///
/// Memory: `refresh()` of 200,000 records into a fresh store in a fresh process at page
/// size 10,000 and 1,000; the figure is the child's peak resident memory (`VmHWM`).
/// Close to the wire: `refresh()` of 20,000 records against raw GETs of the same pages
/// (the same URLs, `URLSessionTransport.send`, bodies held and dropped, nothing parsed), each
/// in a fresh process, alternating, best of `rounds`.
enum PageSizeBenchmarks {
    /// Child side: GETs every page of the collection as a fresh store's refresh asks them.
    /// Prints "seconds bytes".
    static func rawGets(url: String, collection: String, pageSize: Int) async throws -> String {
        guard let server = URL(string: url) else { throw BenchError("bad Kinto URL \(url)") }
        let transport = URLSessionTransport()
        let auth = "Basic " + Data("bench:bench".utf8).base64EncodedString()
        var next: URL? = server.appendingPathComponent("buckets/\(KintoRefreshBenchmarks.bucket)/collections/\(collection)/records")
        var components = URLComponents(url: next!, resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "_sort", value: "last_modified"), URLQueryItem(name: "_limit", value: String(pageSize))]
        next = components.url
        var bytes = 0
        let seconds = try await Timing.seconds {
            while let page = next {
                let response = try await transport.send(HTTPRequest(method: "GET", url: page,
                                                                    headers: [("Accept", "application/json"), ("Authorization", auth)]))
                guard response.status == 200 else { throw BenchError("raw GET answered \(response.status)") }
                bytes += response.body.count
                next = response.header("Next-Page").flatMap { $0.isEmpty ? nil : URL(string: $0) }
            }
        }
        return "\(seconds) \(bytes)"
    }

    /// Child side: one small GET (the server's root) through `URLSessionTransport` and nothing
    /// else: the memory floor of a process that uses the transport (Foundation,
    /// FoundationNetworking, libcurl). Prints "peak-kB".
    static func transportFloor(url: String) async throws -> String {
        guard let server = URL(string: url) else { throw BenchError("bad Kinto URL \(url)") }
        let response = try await URLSessionTransport().send(HTTPRequest(method: "GET", url: server,
                                                                        headers: [("Accept", "application/json")]))
        guard response.status == 200 else { throw BenchError("GET \(url) answered \(response.status)") }
        return String(try PeakMemory.highWaterKilobytes())
    }

    static func rows(url: String, rounds: Int) throws -> [BenchResult] {
        let dir = try TemporaryDirectory("page-size")
        defer { dir.remove() }
        var peaks: [Int: Int] = [:]
        for pageSize in [10_000, 1_000] {
            BenchMain.progress("refresh of 200,000 records at page size \(pageSize) (fresh process)")
            let out = try ChildProcess.runSelf(["refresh-kinto", url, KintoRefreshBenchmarks.collection(200_000),
                                                dir.file("p\(pageSize).sqlite"), String(pageSize)]).split(separator: " ")
            guard out.count == 3, Int(out[1]) == 200_000, let peak = Int(out[2]) else { throw BenchError("refresh child printed \(out)") }
            peaks[pageSize] = peak
        }
        // The floor: what a fresh process that made one GET through the same transport holds
        // (the libraries' resident pages), so the row shows what the refresh adds above it.
        guard let floor = Int(try ChildProcess.runSelf(["transport-floor", url])) else { throw BenchError("transport-floor printed no figure") }
        let limit = 25 * 1024
        let above = { (peak: Int) in "+" + Format.megabytes(kilobytes: peak - floor) }
        let memory = BenchResult(
            scenario: "page size: peak RSS of a refresh of 200,000 records from Kinto (memory), page size 10,000 / 1,000",
            ours: Format.megabytes(kilobytes: peaks[10_000]!) + " / " + Format.megabytes(kilobytes: peaks[1_000]!),
            baseline: "floor " + Format.megabytes(kilobytes: floor) + " (one GET through URLSessionTransport, fresh process); refresh above it "
                + above(peaks[10_000]!) + " / " + above(peaks[1_000]!),
            ratio: Format.ratio(Double(peaks[10_000]!) / Double(peaks[1_000]!)) + " (10,000 / 1,000)",
            target: "≤ 25 MB at both (below the Linux floor: Docs/Performance.md)", passed: peaks.values.allSatisfy { $0 <= limit })

        var ours = Double.infinity, raw = Double.infinity
        for round in 0..<rounds {
            BenchMain.progress("refresh of 20,000 records against raw GETs, round \(round + 1) of \(rounds)")
            let runOurs = {
                let out = try ChildProcess.runSelf(["refresh-kinto", url, KintoRefreshBenchmarks.collection(20_000),
                                                    dir.file("w\(round).sqlite")]).split(separator: " ")
                guard out.count == 3, Int(out[1]) == 20_000, let s = Double(out[0]) else { throw BenchError("refresh child printed \(out)") }
                ours = min(ours, s)
            }
            let runRaw = {
                let out = try ChildProcess.runSelf(["raw-gets", url, KintoRefreshBenchmarks.collection(20_000), "10000"])
                    .split(separator: " ")
                guard out.count == 2, let s = Double(out[0]) else { throw BenchError("raw-gets child printed \(out)") }
                raw = min(raw, s)
            }
            if round % 2 == 0 { try runOurs(); try runRaw() } else { try runRaw(); try runOurs() }
        }
        let ratio = ours / raw
        let wire = BenchResult(
            scenario: "page size: refresh of 20,000 records from Kinto (memory), fresh store, against raw GETs of the same pages",
            ours: Format.fixed(ours, 3) + " s", baseline: Format.fixed(raw, 3) + " s (GET the 2 pages of 10,000, no parsing)",
            ratio: Format.ratio(ratio) + " the raw time", target: "≤ 1.25× the raw time", passed: ratio <= 1.25)
        return [memory, wire]
    }
}
