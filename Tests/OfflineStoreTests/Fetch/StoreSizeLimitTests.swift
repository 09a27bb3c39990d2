import Foundation
import OfflineStore
import OfflineStoreTesting
import Testing

/// `maxStoreSize`: a write past the limit fails and writes nothing; refresh stops at a
/// whole page; eviction of least recently used, synced, unpinned objects.
@Suite struct StoreSizeLimitTests {
    /// A string of `n` bytes.
    static func filler(_ n: Int) -> JSONValue { .string(String(repeating: "x", count: n)) }

    /// Runs `body` with a store limited to its current size plus `headroom` bytes.
    /// `prepare` runs first on the store without a limit.
    func withLimitedStore(headroom: Int64, evicts: Bool = false, backend: (any Backend)? = nil,
                          prepare: (ObjectStore) async throws -> Void = { _ in },
                          _ body: (ObjectStore) async throws -> Void) async throws {
        try await withTemporaryDirectory { dir in
            let path = dir.path("s.sqlite")
            var unlimited = ObjectStore.Configuration()
            unlimited.writeMode = .deferred
            let base = try ObjectStore(path: path, configuration: unlimited, backend: backend)
            try base.register(CollectionDescriptor("todos"))
            try base.register(CollectionDescriptor("notes", localOnly: true))
            try await prepare(base)
            let size = try base.storeSize()
            try base.close()
            var configuration = ObjectStore.Configuration()
            configuration.writeMode = .deferred
            configuration.maxStoreSize = size + headroom
            configuration.evictsWhenFull = evicts
            let store = try ObjectStore(path: path, configuration: configuration, backend: backend)
            defer { try? store.close() }
            try await body(store)
        }
    }

    @Test func aWritePastTheLimitFailsAndWritesNothing() async throws {
        try await withLimitedStore(headroom: 64 * 1024) { store in
            let todos = store.collection("todos")
            try await todos.create(["id": "small", "t": "ok"])
            let before = try store.storeSize()
            let error = await #expect(throws: OfflineStoreError.self) {
                try await todos.create(["id": "big", "t": Self.filler(200_000)])
            }
            #expect(error?.code == .storeFull)
            #expect(try todos.object("big") == nil)
            #expect(try store.queueCount() == 1)
            #expect(try store.storeSize() == before)
            // Shrinking writes still work at the limit.
            try await todos.destroy("small")
            #expect(try todos.find("small") == nil)
        }
    }

    @Test func aTransactionPastTheLimitCommitsNothing() async throws {
        try await withLimitedStore(headroom: 64 * 1024) { (store: ObjectStore) async throws in
            let refused = await #expect(throws: OfflineStoreError.self) {
                try await store.transaction { tx in
                    for i in 0..<10 { try tx.create(["id": .string("t\(i)"), "t": Self.filler(20_000)], in: "todos") }
                }
            }
            #expect(refused?.code == .storeFull)
            #expect(try store.collection("todos").count() == 0)
            #expect(try store.queueCount() == 0)
        }
    }

    /// `storeFull` can only be known after writing: on a limited store each edit of a
    /// transaction keeps its savepoint, so a refused edit leaves nothing and the rest commits.
    @Test func aStoreFullEditCaughtInATransactionLeavesTheRestToCommit() async throws {
        try await withLimitedStore(headroom: 64 * 1024) { (store: ObjectStore) async throws in
            try await store.transaction { tx in
                try tx.create(["id": "small", "t": "ok"], in: "todos")
                let error = #expect(throws: OfflineStoreError.self) {
                    try tx.create(["id": "big", "t": Self.filler(200_000)], in: "todos")
                }
                #expect(error?.code == .storeFull)
                try tx.create(["id": "after", "t": "ok"], in: "todos")
            }
            #expect(try store.collection("todos").object("big") == nil)
            #expect(try store.queueEntries().map(\.objectID) == ["small", "after"])
        }
    }

    @Test func refreshStopsAtTheLimitWithWholePagesOnly() async throws {
        let server = InMemoryBackend(pageSize: 5)
        for i in 0..<40 { server.put(collection: "todos", id: String(format: "r%02d", i), record: ["t": Self.filler(3_000)]) }
        try await withLimitedStore(headroom: 48 * 1024, backend: server) { store in
            let interrupted = await #expect(throws: OfflineStoreError.self) { try await store.refresh() }
            #expect(interrupted?.code == .storeFull)
            let count = try store.collection("todos").count()
            #expect(count > 0 && count < 40)
            #expect(count % 5 == 0, "whole pages only, got \(count)")
            #expect(interrupted?.report?.pulled == count)
            for object in try store.collection("todos").objects() {
                #expect(object.persistent == server.serverRecord(collection: "todos", id: object.id)?.record)
            }
        }
    }

    @Test func evictionRemovesLeastRecentlyUsedSyncedUnpinnedObjectsOnly() async throws {
        let server = InMemoryBackend(pageSize: 100)
        for i in 0..<30 { server.put(collection: "todos", id: String(format: "r%02d", i), record: ["t": Self.filler(4_000)]) }
        try await withLimitedStore(headroom: 1024 * 1024, evicts: true, backend: server) { store in
            let todos = store.collection("todos")
            try await store.refresh()
            try todos.pin("r00")
            try await todos.patch("r01", ["edited": true])             // a local edit: never evicted
            try await store.collection("notes").create(["id": "n", "t": Self.filler(4_000)])  // local-only: never evicted
            try todos.touch(["r02"])                                   // recently used: evicted last
            let evicted = try store.evict(toFit: try store.storeSize() - 40_000)
            #expect(evicted > 0 && evicted < 27)
            #expect(try todos.find("r00") != nil)
            #expect(try todos.isPinned("r00"))
            #expect(try todos.find("r01")?["edited"] == true)
            #expect(try todos.find("r02") != nil)
            #expect(try store.collection("notes").find("n") != nil)
            #expect(try todos.find("r03") == nil)                      // never used: among the first to go
        }
    }

    @Test func automaticEvictionMakesRoomForAnEdit() async throws {
        let server = InMemoryBackend(pageSize: 100)
        for i in 0..<20 { server.put(collection: "todos", id: String(format: "r%02d", i), record: ["t": Self.filler(4_000)]) }
        try await withLimitedStore(headroom: 8 * 1024, evicts: true, backend: server, prepare: { try await $0.refresh() }) { store in
            let todos = store.collection("todos")
            #expect(try todos.count() == 20)
            try await todos.create(["id": "new", "t": Self.filler(30_000)])
            #expect(try todos.find("new") != nil)
            #expect(try todos.count() < 21)
            #expect(try store.queueCount() == 1)
        }
    }
}
