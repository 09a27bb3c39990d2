import Foundation
import OfflineStore

/// Local edits: one durable edit per transaction, and many edits in one bulk transaction.
///
/// The baseline writes the same object row and queue entry with prepared statements
/// into a file with the store's own schema (made by opening an `ObjectStore` there).
/// The required-work floor (``RawRequiredEdits``) adds what every engine must also do per
/// edit; its row shows how close ours is to it, and how far the floor itself is from the baseline.
enum LocalEditBenchmarks {
    static let floorWork = "raw SQLite: the row inserted only if new, the object serialized, a key made"

    static func singleEdits(count: Int, rounds: Int) async throws -> [BenchResult] {
        let objects = (0..<count).map(Fixtures.object)
        let comparison = try await Comparison.run(rounds: rounds, label: "single", ours: { path in
            let store = try emptyStore(path)
            let items = store.collection(Fixtures.collection)
            return try await Timing.seconds {
                for object in objects { try await items.create(object) }
            }
        }, baseline: { path in
            let raw = try RawEdits(path: path, count: count)
            return try Timing.seconds {
                for i in 0..<count {
                    try raw.begin.run()
                    try raw.insert(i)
                    try raw.commit.run()
                }
            }
        }, floor: { path in
            let raw = try RawRequiredEdits(path: path, count: count)
            return try Timing.seconds {
                for i in 0..<count {
                    try raw.begin.run()
                    try raw.create(i)
                    try raw.commit.run()
                }
            }
        })
        let scenario = "durable single edit (row + queue entry, own transaction)"
        return [comparison.row(scenario, count: count, unit: "edits", minimumRatio: 0.95),
                comparison.floorRow("↳ same, required-work floor (\(floorWork))", count: count, unit: "edits")]
    }

    static func bulkEdits(count: Int, rounds: Int) async throws -> [BenchResult] {
        let objects = (0..<count).map(Fixtures.object)
        let comparison = try await Comparison.run(rounds: rounds, label: "bulk", ours: { path in
            let store = try emptyStore(path)
            return try await Timing.seconds {
                try await store.transaction { tx in
                    for object in objects { try tx.create(object, in: Fixtures.collection) }
                }
            }
        }, baseline: { path in
            let raw = try RawEdits(path: path, count: count)
            return try Timing.seconds {
                try raw.begin.run()
                for i in 0..<count { try raw.insert(i) }
                try raw.commit.run()
            }
        }, floor: { path in
            let raw = try RawRequiredEdits(path: path, count: count)
            return try Timing.seconds {
                try raw.begin.run()
                for i in 0..<count { try raw.create(i) }
                try raw.commit.run()
            }
        })
        let scenario = "\(Format.grouped(count)) edits in one bulk transaction"
        return [comparison.row(scenario, count: count, unit: "edits", minimumRatio: 0.7),
                comparison.floorRow("↳ same, required-work floor (\(floorWork))", count: count, unit: "edits")]
    }

    /// A new local store (every edit queues) with the property-bag collection registered.
    static func emptyStore(_ path: String) throws -> ObjectStore {
        let store = try ObjectStore(path: path)
        try store.register(CollectionDescriptor(Fixtures.collection))
        return store
    }
}

/// The baseline of a local edit: an object row and a queue entry, with prepared statements.
struct RawEdits {
    let db: RawSQLite
    let begin, commit, insertObject, insertEntry: RawSQLite.Statement
    let ids: [String]
    let texts: [String]
    let keys: [String]

    init(path: String, count: Int) throws {
        try LocalEditBenchmarks.emptyStore(path).close()
        db = try RawSQLite(path: path)
        begin = try db.prepare("BEGIN IMMEDIATE")
        commit = try db.prepare("COMMIT")
        insertObject = try db.prepare("""
            INSERT INTO objects(collection, id, local, dirty, state, local_rev) VALUES (?, ?, ?, 1, 'created', 1)
            """)
        insertEntry = try db.prepare("""
            INSERT INTO queue(collection, object_id, kind, idempotency_key, state, created_at)
            VALUES (?, ?, 'create', ?, 'pending', ?)
            """)
        ids = (0..<count).map(Fixtures.id)
        texts = (0..<count).map { Fixtures.object($0).serialized() }
        keys = (0..<count).map { _ in UUID().uuidString.lowercased() }
    }

    func insert(_ i: Int) throws {
        let id = ids[i]
        try insertObject.bind(1, Fixtures.collection)
        try insertObject.bind(2, id)
        try insertObject.bind(3, texts[i])
        try insertObject.run()
        try insertEntry.bind(1, Fixtures.collection)
        try insertEntry.bind(2, id)
        try insertEntry.bind(3, keys[i])
        try insertEntry.bind(4, Date().timeIntervalSince1970)
        try insertEntry.run()
    }
}
