import Foundation
import OfflineStoreTesting
import Testing
@testable import OfflineStore

/// `ObjectStore.inMemory()` against a file store: one scenario, run on both, must read the
/// same at every step; and what is particular to memory (nothing left behind).
@Suite("ObjectStore in memory and on file", .timeLimit(.minutes(5)))
struct ObjectStoreInMemoryTests {
    enum Kind: String, CaseIterable, Sendable { case file, memory }

    static let todos = CollectionDescriptor("todos")
    static let photos = CollectionDescriptor("photos", blobFields: [BlobField("image")], localOnly: true)

    /// Local edits, a sync, a conflict and its resolution, queries, an observation, a blob
    /// and typed errors; returns what the store showed at each step, one line per step.
    static func scenario(_ kind: Kind) async throws -> [String] {
        let backend = PushFixture.backend()
        return try await withTemporaryStore(inMemory: kind == .memory, backend: backend, collections: [Self.todos, Self.photos]) { store in
            var seen: [String] = []
            func note(_ step: String, _ value: some CustomStringConvertible) { seen.append("\(step): \(value)") }
            let todos = store.collection("todos")
            store.setOffline(true)
            try await todos.create(["id": "a", "title": "Buy milk", "done": false])
            try await todos.create(["id": "b", "title": "Walk", "done": false])
            try await todos.patch("a", ["done": true])
            try await todos.destroy("b")
            note("queued", try store.queueCount())
            note("open", try todos.findAll(where: .equal("done", false)).count)
            store.setOffline(false)
            let first = try await store.sync()
            note("first sync", "\(first.pushed) pushed, \(first.pending) pending")
            note("server", backend.allRecords(collection: "todos").keys.sorted())

            _ = backend.put(collection: "todos", id: "a", record: ["id": "a", "title": "Buy oat milk", "done": true])
            store.setOffline(true)
            try await todos.patch("a", ["title": "Buy soy milk"])
            store.setOffline(false)
            let second = try await store.sync()
            note("second sync", "\(second.conflictsDetected) conflicts, \(second.conflicts) left")
            for conflict in try store.conflicts() {
                note("conflict", "\(conflict.id) local \(conflict.local?["title"]?.stringValue ?? "-") server \(conflict.server?["title"]?.stringValue ?? "-")")
                try store.resolve(conflict.collection, id: conflict.id, with: .keepLocal)
            }
            let third = try await store.sync()
            note("third sync", "\(third.pushed) pushed, \(third.conflicts) conflicts")
            note("server a", backend.serverRecord(collection: "todos", id: "a")?.record["title"]?.stringValue ?? "-")

            for try await all in todos.observeAll() { note("observed", all.count); break }
            try await store.collection("photos").create(["id": "p"])
            try await store.collection("photos").attach("p", field: "image", data: Data("pixels".utf8))
            note("blob", String(decoding: try await store.collection("photos").blobData("p", field: "image"), as: UTF8.self))
            note("blob file", FileManager.default.fileExists(atPath: store.local.location.blobDirectory.path))
            let missing = #expect(throws: OfflineStoreError.self) { try store.collection("nope").findAll() }
            note("unknown collection", missing?.code.description ?? "none")
            return seen
        }
    }

    @Test func aFileStoreAndAnInMemoryStoreShowTheSameAtEveryStep() async throws {
        let file = try await Self.scenario(.file)
        let memory = try await Self.scenario(.memory)
        #expect(file == memory)
        #expect(memory.contains("first sync: 1 pushed, 0 pending"))
        #expect(memory.contains("third sync: 1 pushed, 0 conflicts"))
        #expect(memory.contains("server a: Buy soy milk"))
        #expect(memory.contains("blob: pixels"))
        #expect(memory.contains("unknown collection: unknownCollection"))
    }

    @Test func anInMemoryStoreLeavesNothingBehind() async throws {
        let store = try ObjectStore.inMemory()
        #expect(store.isInMemory && store.path == ":memory:")
        try store.register(Self.photos)
        try await store.collection("photos").create(["id": "p"])
        try await store.collection("photos").attach("p", field: "image", data: Data("pixels".utf8))
        let blobs = store.local.location.blobDirectory
        #expect(FileManager.default.fileExists(atPath: blobs.path))
        try store.close()
        #expect(!FileManager.default.fileExists(atPath: blobs.path))
        let again = try ObjectStore.inMemory()
        defer { try? again.close() }
        #expect(again.collections().isEmpty, "each in-memory store is a database of its own")
    }

    @Test func prepareDatabaseRunsOnEveryConnectionFirst() async throws {
        let prepared = Locked(0)
        var configuration = ObjectStore.Configuration()
        configuration.prepareDatabase = { db in
            prepared.withLock { $0 += 1 }
            try db.execute(sql: "PRAGMA cache_size = -1024")
        }
        try await withTemporaryStore(configuration: configuration, collections: [Self.todos]) { store in
            try await store.collection("todos").create(["id": "a"])
            _ = try store.collection("todos").findAll()
            #expect(prepared.withLock { $0 } >= 2, "the writer and at least one reader")
        }
        configuration.prepareDatabase = { _ in throw OfflineStoreError(.configuration, "no key in the keychain") }
        let refused = #expect(throws: OfflineStoreError.self) { try ObjectStore.inMemory(configuration: configuration) }
        #expect(refused?.code == .configuration)
    }
}
