import Foundation
import OfflineStore

/// Reads from a large store: the 1M-object store that the peak-memory refresh built.
enum StoreSizeBenchmarks {
    /// Median seconds of `findAll(where: n == k)` on the indexed field, over random k.
    static func findMedian(path: String, objects: Int, queries: Int) throws -> Double {
        let store = try ObjectStore(path: path)
        defer { try? store.close() }
        let items = store.collection(Fixtures.collection)
        var generator = SystemRandomNumberGenerator()
        var times: [Double] = []
        times.reserveCapacity(queries)
        for q in 0..<(queries + queries / 10) {
            let k = Int.random(in: 0..<objects, using: &generator)
            var found: [JSONValue] = []
            let t = try Timing.seconds { found = try items.findAll(where: .equal("n", .int(Int64(k)))) }
            guard found.count == 1 else { throw BenchError("find n == \(k) returned \(found.count) objects") }
            if q >= queries / 10 { times.append(t) }  // the first tenth warms the cache
        }
        return Timing.median(times)
    }

    /// Child side: seconds to open the store and read one object by id.
    static func openAndRead(path: String, id: String) throws -> Double {
        var found: JSONValue?
        var store: ObjectStore?
        let t = try Timing.seconds {
            store = try ObjectStore(path: path)
            found = try store?.collection(Fixtures.collection).find(id)
        }
        try store?.close()
        guard found != nil else { throw BenchError("object \(id) not found") }
        return t
    }

    static func findRow(path: String, objects: Int) throws -> BenchResult {
        let median = try findMedian(path: path, objects: objects, queries: 2000)
        return BenchResult(scenario: "find by indexed field in a \(Format.grouped(objects))-object collection (median)",
                           ours: Format.milliseconds(median), baseline: "—", ratio: "—", target: "< 1 ms median",
                           passed: median < 0.001)
    }

    static func openRow(path: String, objects: Int) throws -> BenchResult {
        var times: [Double] = []
        for _ in 0..<5 {
            guard let t = Double(try ChildProcess.runSelf(["open-read", path, Fixtures.id(objects / 2)])) else {
                throw BenchError("open-read printed no number")
            }
            times.append(t)
        }
        let median = Timing.median(times)
        return BenchResult(scenario: "open a store with \(Format.grouped(objects)) objects and read one (fresh process, median of 5)",
                           ours: Format.milliseconds(median), baseline: "—", ratio: "—", target: "< 50 ms",
                           passed: median < 0.050)
    }
}
