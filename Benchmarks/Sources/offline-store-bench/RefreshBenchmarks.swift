import Foundation
import OfflineStore

/// Refresh ingest: pages of Kinto JSON already in memory, parsed and applied.
///
/// Ours is `store.refresh()` through `KintoBackend` (its page reader) over an in-memory
/// transport. The baseline is the SQLite-only limit: the same records' text, serialized
/// before the clock starts, inserted with one prepared statement, one transaction per
/// page, storing the cursor with it.
enum RefreshBenchmarks {
    static let pageSize = 500

    static func ingest(count: Int, rounds: Int) async throws -> BenchResult {
        let pages = Fixtures.kintoPages(count: count, pageSize: pageSize)
        let comparison = try await Comparison.run(rounds: rounds, label: "ingest", ours: { path in
            let store = try ObjectStore(path: path, backend: PagedBackend(pages: pages))
            try store.register(CollectionDescriptor(Fixtures.collection))
            return try await Timing.seconds { try await store.refresh() }
        }, baseline: { path in
            let raw = try RawIngest(path: path, pages: pages)
            return try Timing.seconds { try raw.run() }
        })
        return comparison.row("refresh ingest of \(Format.grouped(count)) objects from in-memory pages", count: count,
                              unit: "objects", minimumRatio: 0.85, minimumRate: 100_000)
    }

    /// Runs in a fresh child process: refreshes `count` objects (pages built on demand) into
    /// the store at `path`, with the indexed fixed-schema collection. Returns peak RSS in kB.
    static func refreshForPeakMemory(count: Int, path: String) async throws -> Int {
        let store = try ObjectStore(path: path, backend: PagedBackend(objects: count, pageSize: pageSize))
        try store.register(Fixtures.indexedItems)
        try await store.refresh()
        try store.close()
        return try PeakMemory.highWaterKilobytes()
    }
}

/// The SQLite-only limit of refresh ingest: the pages' records serialized beforehand,
/// inserted with one prepared statement, one transaction per page storing the cursor with it.
struct RawIngest {
    let db: RawSQLite
    let begin, commit, insert, cursor: RawSQLite.Statement
    let serialized: [[(id: String, text: String?, version: String)]]

    init(path: String, pages: [[UInt8]]) throws {
        try ObjectStore(path: path).close()
        db = try RawSQLite(path: path)
        begin = try db.prepare("BEGIN IMMEDIATE")
        commit = try db.prepare("COMMIT")
        insert = try db.prepare("""
            INSERT INTO objects(collection, id, persistent, server_version, state) VALUES (?, ?, ?, ?, 'synced')
            """)
        cursor = try db.prepare("INSERT OR REPLACE INTO collections(name, descriptor, cursor) VALUES (?, '{}', ?)")
        serialized = try pages.map { page in
            try Fixtures.changes(ofPage: page).map { ($0.id, $0.record?.serialized(), $0.version) }
        }
    }

    /// Inserts every page's records, one transaction per page.
    func run() throws {
        for records in serialized {
            try begin.run()
            for (id, text, version) in records {
                try insert.bind(1, Fixtures.collection)
                try insert.bind(2, id)
                try insert.bind(3, text)
                try insert.bind(4, version)
                try insert.run()
            }
            try cursor.bind(1, Fixtures.collection)
            try cursor.bind(2, records.last?.version)
            try cursor.run()
            try commit.run()
        }
    }
}
