import Foundation
import GRDB
import Testing
@testable import OfflineStore
import OfflineStorePlatform
import OfflineStoreTestPlatform
import OfflineStoreTesting

/// The hot paths made fast for the benchmarks (Docs/Performance.md) keep their exact
/// results: serialized text, idempotency keys, rows read back column by column.
@Suite("Hot paths")
struct HotPathTests {
    @Test func lowercaseUUIDStringMatchesFoundation() {
        for _ in 0..<100 {
            let uuid = UUID()
            #expect(uuid.lowercaseString == uuid.uuidString.lowercased())
        }
    }

    /// The store's own random UUIDs are well-formed version 4 UUIDs, and distinct.
    @Test func randomUUIDsAreVersion4AndDistinct() {
        var seen = Set<String>()
        for _ in 0..<1_000 {
            let uuid = UUID.random()
            let text = uuid.lowercaseString
            #expect(text == uuid.uuidString.lowercased())
            let characters = Array(text)
            #expect(characters[14] == "4", "version nibble of \(text)")
            #expect("89ab".contains(characters[19]), "variant bits of \(text)")
            seen.insert(text)
        }
        #expect(seen.count == 1_000)
    }

    /// The random bytes are buffered (16 UUIDs per system call on Linux): a child made by
    /// `fork()` must not hand out the bytes its parent hands out next.
    @Test(.enabled(if: SecureRandom.buffersBytes,
                   "Darwin's generator (arc4random_buf) keeps no buffer of ours: nothing a fork could share"))
    func aForkedChildDrawsOtherRandomBytes() throws {
        for _ in 0..<3 {
            let draws = try #require(SecureRandom.drawsAcrossFork(), "the fork and its pipe worked")
            #expect(draws.parent != draws.child)
            #expect(draws.child != [UInt8](repeating: 0, count: 16), "the child drew bytes")
        }
    }

    @Test("serialization escapes exactly as before", arguments: [
        ("plain", #""plain""#), ("quote \" here", #""quote \" here""#), ("back\\slash", #""back\\slash""#),
        ("line\nbreak\ttab\r", #""line\nbreak\ttab\r""#), ("bell\u{07}", #""bell\u0007""#), ("é😀", "\"é😀\""),
    ])
    func stringEscapes(text: String, expected: String) {
        #expect(JSONValue.string(text).serialized() == expected)
    }

    /// Integers are written digit by digit, as `String(i)` writes them.
    @Test func integersSerializeAsTheirDescription() {
        var values: [Int64] = [0, 1, -1, 9, 10, -9, -10, 99, 100, 1_234_567, .max, .min, .max - 1, .min + 1]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1_000 { values.append(Int64.random(in: .min ... .max, using: &generator) >> Int64.random(in: 0...62)) }
        for value in values { #expect(JSONValue.int(value).serialized() == String(value)) }
    }

    @Test func objectMembersAreWrittenInKeyOrder() {
        let value: JSONValue = ["b": 1, "a": ["z": true, "y": .null], "c": "x"]
        #expect(value.serialized() == #"{"a":{"y":null,"z":true},"b":1,"c":"x"}"#)
    }

    /// Every column of an object row survives the direct `sqlite3_*` write and read.
    @Test func anObjectRowRoundTripsThroughTheHotStatements() async throws {
        try await withTemporaryStore(collections: [CollectionDescriptor("todos")]) { store async throws in
            try store.local.write("test") { db in
                var row = ObjectRow(collection: "todos", id: "k")
                row.persistent = ["id": "k", "v": 1]
                row.serverVersion = "7"
                row.beginLocalEdit()
                row.local = ["id": "k", "v": 2, "s": "quote \" é"]
                row.deriveState()
                try row.save(db)
                let read = try #require(try ObjectRow.fetch(db, collection: "todos", id: "k"))
                #expect(read.persistent == row.persistent && read.local == row.local && read.base == row.base)
                #expect(read.dirty && read.baseVersion == "7" && read.serverVersion == "7")
                #expect(read.state == .updated && read.localRev == 1)
                #expect(try ObjectRow.fetch(db, collection: "todos", id: "missing") == nil)
            }
        }
    }

    /// A corrupt state on disk is a typed error, not a crash or a silent default.
    @Test func anUnknownStoredStateIsCorrupted() async throws {
        try await withTemporaryStore(collections: [CollectionDescriptor("todos")]) { store async throws in
            _ = try await store.collection("todos").create(["id": "k"])
            let error = #expect(throws: OfflineStoreError.self) {
                try store.local.write("test") { db in
                    try db.execute(sql: "UPDATE objects SET state = 'bogus' WHERE id = 'k'")
                    _ = try ObjectRow.fetch(db, collection: "todos", id: "k")
                }
            }
            #expect(error?.code == .corrupted)
            #expect(error?.message.contains("bogus") == true, "the message names what was wrong")
        }
    }

    /// A server may announce any batch limit: Int.max must not overflow the flush's paging.
    @Test func aHugeServerBatchLimitFlushesEverything() async throws {
        let backend = InMemoryBackend(configuration: .init(maxBatchSize: Int.max))
        try await withTemporaryStore(backend: backend, collections: [CollectionDescriptor("todos")]) { store async throws in
            for i in 0..<3 { _ = try await store.collection("todos").create(["id": .string("t\(i)")]) }
            try await store.flush()
            #expect(backend.allRecords(collection: "todos").count == 3)
            #expect(try store.queueCount() == 0)
        }
    }
}
