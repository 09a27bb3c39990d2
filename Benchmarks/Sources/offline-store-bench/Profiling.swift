import Foundation
import OfflineStore

/// Our side of one scenario, run alone so that callgrind's instruction counts show where
/// the library spends its time: `offline-store-bench child profile bulk 10000`. The `floor-`
/// scenarios profile the required-work floor of the same edits; `fixtures` only builds their objects.
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
        case "ingest-fixtures":
            // Only the pages the `ingest` child builds, to subtract from its count.
            let pages = (0..<(count + 499) / 500).map { Fixtures.kintoPage(($0 * 500)..<min(count, ($0 + 1) * 500)) }
            guard pages.count > 0 else { throw BenchError("fixtures") }
        case "raw-ingest", "raw-ingest-fixtures":
            // The ingest baseline (RawIngest); `-fixtures` only builds its serialized records.
            let pages = (0..<(count + 499) / 500).map { Fixtures.kintoPage(($0 * 500)..<min(count, ($0 + 1) * 500)) }
            let raw = try RawIngest(path: dir.file("r.sqlite"), pages: pages)
            if scenario == "raw-ingest" { try raw.run() }
        case "raw-single", "raw-bulk":
            // The edit baseline (RawEdits): its keys and texts are made before it runs.
            let raw = try RawEdits(path: dir.file("r.sqlite"), count: count)
            let single = scenario == "raw-single"
            if !single { try raw.begin.run() }
            for i in 0..<count {
                if single { try raw.begin.run() }
                try raw.insert(i)
                if single { try raw.commit.run() }
            }
            if !single { try raw.commit.run() }
        case "floor-single", "floor-bulk":
            // The required-work floor of the same edits (RawRequiredEdits).
            let raw = try RawRequiredEdits(path: dir.file("f.sqlite"), count: count)
            let single = scenario == "floor-single"
            if !single { try raw.begin.run() }
            for i in 0..<count {
                if single { try raw.begin.run() }
                try raw.create(i)
                if single { try raw.commit.run() }
            }
            if !single { try raw.commit.run() }
        case "fixtures":
            // Only the objects every edit scenario builds, to subtract from the others' counts.
            let objects = (0..<count).map(Fixtures.object)
            let ids = (0..<count).map(Fixtures.id)
            guard objects.count == ids.count else { throw BenchError("fixtures") }
        default:
            throw BenchError("profile: single, bulk, ingest, floor-single, floor-bulk, raw-single, raw-bulk, raw-ingest, "
                             + "fixtures, ingest-fixtures or raw-ingest-fixtures")
        }
    }
}
