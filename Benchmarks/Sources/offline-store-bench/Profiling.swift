import Foundation
import OfflineStore

/// Our side of one scenario, run alone so that callgrind's instruction counts show where
/// the library spends its time: `offline-store-bench child profile bulk 10000`.
enum Profiling {
    static func run(_ scenario: String, count: Int) async throws {
        let dir = try TemporaryDirectory("profile")
        defer { dir.remove() }
        switch scenario {
        case "single":
            let items = try LocalEditBenchmarks.emptyStore(dir.file("p.sqlite")).collection(Fixtures.collection)
            for i in 0..<count { try await items.create(Fixtures.object(i)) }
        case "bulk":
            let store = try LocalEditBenchmarks.emptyStore(dir.file("p.sqlite"))
            try await store.transaction { tx in
                for i in 0..<count { try tx.create(Fixtures.object(i), in: Fixtures.collection) }
            }
        case "ingest":
            let store = try ObjectStore(path: dir.file("p.sqlite"), backend: PagedBackend(objects: count, pageSize: 500))
            try store.register(CollectionDescriptor(Fixtures.collection))
            try await store.refresh()
        default:
            throw BenchError("profile: single, bulk or ingest")
        }
    }
}
