import Foundation
import GRDBSQLite
import OfflineStore

/// The required-work floor of a local edit: raw SQLite doing only what any engine must do
/// per edit to keep the store's guarantees, with nothing of ours around it.
///
/// Per edit: insert the object row unless one exists (`ON CONFLICT DO NOTHING`: create,
/// or tombstone/conflict for the general path), no probe of the queue (an object without a
/// row has no queue entries: they are orphans), serialize the object with the
/// store's serializer (`JSONValue.serialized()`), make a new idempotency key from a random
/// UUID (made and formatted as the store does), and the baseline's two `INSERT`s. No savepoint: the engine needs none for these edits
/// (every check runs before the first write, see `EditIsolation`). Statements and binding
/// are the baseline's (`RawSQLite`), so the floor differs from the baseline only by the
/// required work the baseline leaves out.
struct RawRequiredEdits {
    let db: RawSQLite
    let begin, commit, insertObject, insertEntry: RawSQLite.Statement
    let ids: [String]
    let objects: [JSONValue]

    init(path: String, count: Int) throws {
        try LocalEditBenchmarks.emptyStore(path).close()
        db = try RawSQLite(path: path)
        begin = try db.prepare("BEGIN IMMEDIATE")
        commit = try db.prepare("COMMIT")

        insertObject = try db.prepare("""
            INSERT INTO objects(collection, id, local, dirty, state, local_rev) VALUES (?, ?, ?, 1, 'created', 1)
            ON CONFLICT(collection, id) DO NOTHING
            """)
        insertEntry = try db.prepare("""
            INSERT INTO queue(collection, object_id, kind, idempotency_key, state, created_at)
            VALUES (?, ?, 'create', ?, 'pending', ?)
            """)
        ids = (0..<count).map(Fixtures.id)
        objects = (0..<count).map(Fixtures.object)
    }

    /// The required work of creating object `i`, inside the caller's transaction.
    func create(_ i: Int) throws {
        let id = ids[i]
        try insertObject.bind(1, Fixtures.collection)
        try insertObject.bind(2, id)
        try insertObject.bind(3, objects[i].serialized())
        try insertObject.run()
        guard sqlite3_changes(db.handle) == 1 else { throw BenchError("floor: \(id) exists already") }
        try insertEntry.bind(1, Fixtures.collection)
        try insertEntry.bind(2, id)
        try insertEntry.bind(3, UUID.randomKey())
        try insertEntry.bind(4, Date().timeIntervalSince1970)
        try insertEntry.run()
    }
}

extension UUID {
    /// A new random UUID as lowercase text, made as the store makes its idempotency keys:
    /// 128 bits from a buffer that one `getentropy` call fills for 16 keys (``FloorRandom``)
    /// with the version 4 bits set, formatted from the bytes (Foundation's `UUID()` reads
    /// `/dev/urandom` through three system calls, and `uuidString` plus `lowercased()` cost
    /// several times the formatting).
    static func randomKey() -> String {
        var bytes = FloorRandom.next128()
        let hex = Array("0123456789abcdef".utf8)
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = raw[6] & 0x0F | 0x40
            raw[8] = raw[8] & 0x3F | 0x80
            return String(unsafeUninitializedCapacity: 36) { out in
                var n = 0
                for (i, byte) in raw.enumerated() {
                    if i == 4 || i == 6 || i == 8 || i == 10 { out[n] = UInt8(ascii: "-"); n += 1 }
                    out[n] = hex[Int(byte >> 4)]
                    out[n + 1] = hex[Int(byte & 0xF)]
                    n += 2
                }
                return n
            }
        }
    }
}
