import Foundation
import OfflineStore

/// The fixture object as a typed model.
struct BenchItem: SyncModel {
    static let collectionName = Fixtures.collection
    var id: String
    var title: String
    var done: Bool
    var n: Int
    var tags: [String]

    init(_ i: Int) {
        id = Fixtures.id(i)
        title = "Item number \(i)"
        done = i % 2 == 0
        n = i
        tags = ["bench", "fixture"]
    }
}

/// Typed edits and reads against the JSON API doing the same work in the same run: the
/// typed layer's own cost (encoding, keeping unknown fields, decoding) as a ratio.
enum TypedModelBenchmarks {
    /// `count` durable single saves, typed (`ModelCollection.save`) against JSON (`ObjectCollection.save`).
    static func edits(count: Int, rounds: Int) async throws -> BenchResult {
        let models = (0..<count).map(BenchItem.init)
        let objects = (0..<count).map(Fixtures.object)
        var typed = Double.infinity, json = Double.infinity
        for round in 0..<rounds {
            let dir = try TemporaryDirectory("typed-edits-\(round)")
            defer { dir.remove() }
            let typedStore = try LocalEditBenchmarks.emptyStore(dir.file("typed.sqlite"))
            let items = typedStore.collection(BenchItem.self)
            typed = min(typed, try await Timing.seconds { for model in models { try await items.save(model) } })
            try typedStore.close()
            let jsonStore = try LocalEditBenchmarks.emptyStore(dir.file("json.sqlite"))
            let jsonItems = jsonStore.collection(Fixtures.collection)
            json = min(json, try await Timing.seconds { for object in objects { try await jsonItems.save(object) } })
            try jsonStore.close()
        }
        return row("typed durable single save (ModelCollection.save vs JSON save)", count: count, unit: "edits",
                   typed: typed, json: json)
    }

    /// Reading all `count` objects with `findAll`, typed (decoded) against JSON, `rounds` times each.
    static func reads(count: Int, rounds: Int) async throws -> BenchResult {
        let dir = try TemporaryDirectory("typed-reads")
        defer { dir.remove() }
        let store = try LocalEditBenchmarks.emptyStore(dir.file("store.sqlite"))
        defer { try? store.close() }
        try await store.transaction { tx in
            for i in 0..<count { try tx.create(Fixtures.object(i), in: Fixtures.collection) }
        }
        let typedItems = store.collection(BenchItem.self)
        let jsonItems = store.collection(Fixtures.collection)
        var typed = Double.infinity, json = Double.infinity
        for _ in 0..<rounds {
            typed = min(typed, try Timing.seconds {
                let all = try typedItems.findAll(where: \.done == true)
                guard all.count == count / 2, all.undecodable.isEmpty else { throw BenchError("typed read found \(all.count)") }
            })
            json = min(json, try Timing.seconds {
                let all = try jsonItems.findAll(where: .equal("done", true))
                guard all.count == count / 2 else { throw BenchError("JSON read found \(all.count)") }
            })
        }
        return row("typed query read of \(Format.grouped(count / 2)) objects (findAll, decoded vs JSON)",
                   count: count / 2, unit: "objects", typed: typed, json: json)
    }

    static func row(_ scenario: String, count: Int, unit: String, typed: Double, json: Double) -> BenchResult {
        let typedRate = Double(count) / typed
        let jsonRate = Double(count) / json
        let ratio = typedRate / jsonRate
        return BenchResult(scenario: scenario, ours: Format.rate(typedRate, unit), baseline: "JSON " + Format.rate(jsonRate, unit),
                           ratio: Format.ratio(ratio), target: "≥ 0.8×", passed: ratio >= 0.8)
    }
}
