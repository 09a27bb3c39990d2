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
            let pages = Fixtures.kintoPages(count: count, pageSize: 500)
            guard pages.count > 0 else { throw BenchError("fixtures") }
        case "raw-ingest", "raw-ingest-fixtures":
            // The ingest baseline (RawIngest); `-fixtures` only builds its serialized records.
            let pages = Fixtures.kintoPages(count: count, pageSize: 500)
            let raw = try RawIngest(path: dir.file("r.sqlite"), pages: pages)
            if scenario == "raw-ingest" { try raw.run() }
        case "raw-single", "raw-bulk":
            // The edit baseline (RawEdits): its keys and texts are made before it runs.
            let raw = try RawEdits(path: dir.file("r.sqlite"), count: count)
            try edits(count, single: scenario == "raw-single", begin: raw.begin, commit: raw.commit, edit: raw.insert)
        case "floor-single", "floor-bulk":
            // The required-work floor of the same edits (RawRequiredEdits).
            let raw = try RawRequiredEdits(path: dir.file("f.sqlite"), count: count)
            try edits(count, single: scenario == "floor-single", begin: raw.begin, commit: raw.commit, edit: raw.create)
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

    /// Runs `edit` for `0..<count`, each in its own transaction (`single`) or all in one.
    private static func edits(_ count: Int, single: Bool, begin: RawSQLite.Statement, commit: RawSQLite.Statement,
                              edit: (Int) throws -> Void) throws {
        if !single { try begin.run() }
        for i in 0..<count {
            if single { try begin.run() }
            try edit(i)
            if single { try commit.run() }
        }
        if !single { try commit.run() }
    }
}
