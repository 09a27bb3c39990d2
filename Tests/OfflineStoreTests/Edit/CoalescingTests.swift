import Testing
@testable import OfflineStore

/// Coalescing of edits into the pending queue entry of the same object (SPEC §3).
@Suite("Queue coalescing")
struct CoalescingTests {
    static let collections = [CollectionDescriptor("todos"), CollectionDescriptor("notes")]

    // MARK: The pure table

    @Test("Coalescing.combine follows the table", arguments: [
        (.create, .update, .merge(into: .create)),
        (.create, .delete, .cancel),
        (.update, .update, .merge(into: .update)),
        (.update, .delete, .merge(into: .delete)),
        (.delete, .create, .merge(into: .update)),
        (.create, .create, nil),
        (.update, .create, nil),
        (.delete, .update, nil),
        (.delete, .delete, nil),
    ] as [(QueueEntry.Kind, QueueEntry.Kind, Coalescing?)])
    func table(pending: QueueEntry.Kind, incoming: QueueEntry.Kind, expected: Coalescing?) {
        #expect(Coalescing.combine(pending: pending, with: incoming) == expected)
    }

    @Test func tableCoversEveryPair() {
        var defined = 0
        for pending in QueueEntry.Kind.allCases {
            for incoming in QueueEntry.Kind.allCases where Coalescing.combine(pending: pending, with: incoming) != nil {
                defined += 1
            }
        }
        #expect(defined == 5)
    }

    // MARK: Through the public API

    @Test func createThenUpdateStaysACreate() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try await todos.create(["id": "a", "title": "one", "n": 1])
            try await todos.patch("a", ["n": 2])
            try await todos.replace("a", with: ["title": "two", "n": 3])
            try await todos.save(["id": "a", "title": "three", "n": 4])

            let entry = try store.onlyEntry("todos", "a")
            #expect(entry.kind == .create)
            #expect(entry.state == .pending)
            #expect(entry.baseVersion == nil)
            #expect(try store.queueCount() == 1)
            let object = try #require(try todos.object("a"))
            #expect(object.state == .created)
            #expect(object.value == ["id": "a", "title": "three", "n": 4])
            #expect(object.persistent == nil)
        }
    }

    @Test func createThenDeleteLeavesNothing() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try await todos.create(["id": "keep"])
            try await todos.create(["id": "a", "n": 1])
            try await todos.patch("a", ["n": 2])
            try await todos.destroy("a")

            #expect(try store.queueEntries(collection: "todos", id: "a").isEmpty)
            #expect(try store.queueCount() == 1)
            #expect(try todos.object("a") == nil)
            #expect(try todos.find("a") == nil)
            #expect(try todos.isChanged("a") == false)
            #expect(try todos.objects(state: .deleted).isEmpty)
            // The id is free again: a new create is a plain create.
            try await todos.create(["id": "a", "n": 3])
            #expect(try store.onlyEntry("todos", "a").kind == .create)
            #expect(try todos.object("a")?.state == .created)
        }
    }

    @Test func updateThenUpdateStaysOneUpdate() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try store.seedSynced("todos", ["id": "a", "title": "server", "n": 0], version: "v7")
            try await todos.patch("a", ["n": 1])
            try await todos.patch("a", ["title": "local"])
            try await todos.replace("a", with: ["title": "replaced", "n": 2])

            let entry = try store.onlyEntry("todos", "a")
            #expect(entry.kind == .update)
            #expect(entry.state == .pending)
            #expect(entry.baseVersion == "v7")
            let object = try #require(try todos.object("a"))
            #expect(object.state == .updated)
            #expect(object.value == ["id": "a", "title": "replaced", "n": 2])
            #expect(object.persistent == ["id": "a", "title": "server", "n": 0])
            #expect(object.base == ["id": "a", "title": "server", "n": 0])
            #expect(object.baseVersion == "v7")
            #expect(object.serverVersion == "v7")
        }
    }

    @Test func updateThenDeleteBecomesADelete() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try store.seedSynced("todos", ["id": "a", "n": 0], version: "v2")
            try await todos.patch("a", ["n": 1])
            try await todos.destroy("a")

            let entry = try store.onlyEntry("todos", "a")
            #expect(entry.kind == .delete)
            #expect(entry.baseVersion == "v2")
            let object = try #require(try todos.object("a"))
            #expect(object.state == .deleted)
            #expect(object.isLocallyDeleted)
            #expect(object.local == nil)
            #expect(object.value == nil)
            #expect(object.persistent == ["id": "a", "n": 0])
            #expect(try todos.find("a") == nil)
        }
    }

    @Test func deleteThenCreateBecomesAnUpdate() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try store.seedSynced("todos", ["id": "a", "n": 0], version: "v3")
            try await todos.destroy("a")
            #expect(try store.onlyEntry("todos", "a").kind == .delete)
            try await todos.create(["id": "a", "n": 5])

            let entry = try store.onlyEntry("todos", "a")
            #expect(entry.kind == .update)
            #expect(entry.baseVersion == "v3")
            let object = try #require(try todos.object("a"))
            #expect(object.state == .updated)
            #expect(object.value == ["id": "a", "n": 5])
            #expect(object.isLocallyDeleted == false)
            #expect(object.baseVersion == "v3")
        }
    }

    @Test func saveOverATombstoneAlsoBecomesAnUpdate() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try store.seedSynced("todos", ["id": "a", "n": 0])
            try await todos.destroy("a")
            try await todos.save(["id": "a", "n": 6])
            #expect(try store.onlyEntry("todos", "a").kind == .update)
            #expect(try todos.find("a") == ["id": "a", "n": 6])
            // And deleting again is a delete of the server's object.
            try await todos.destroy("a")
            #expect(try store.onlyEntry("todos", "a").kind == .delete)
            #expect(try todos.object("a")?.state == .deleted)
        }
    }

    @Test func coalescingKeepsTheEntrysPlaceInTheQueue() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            let notes = store.collection("notes")
            try store.seedSynced("todos", ["id": "s", "n": 0])
            try await todos.create(["id": "a"])          // 1
            try await notes.create(["id": "x"])          // 2
            try await todos.destroy("s")                 // 3
            try await notes.create(["id": "y"])          // 4
            let before = try store.queueEntries()
            #expect(before.map(\.objectID) == ["a", "x", "s", "y"])

            try await todos.patch("a", ["n": 1])         // into 1
            try await todos.create(["id": "s", "n": 2])  // into 3, now an update
            try await notes.patch("x", ["n": 3])         // into 2
            let after = try store.queueEntries()
            #expect(after.map(\.seq) == before.map(\.seq))
            #expect(after.map(\.objectID) == ["a", "x", "s", "y"])
            #expect(after.map(\.kind) == [.create, .create, .update, .create])
            #expect(after.map(\.idempotencyKey) == before.map(\.idempotencyKey))
        }
    }

    @Test func queueIsFIFOAcrossCollections() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            var expected: [(String, String)] = []
            for i in 0..<20 {
                let collection = i % 3 == 0 ? "notes" : "todos"
                try await store.collection(collection).create(["id": .string("o\(i)")])
                expected.append((collection, "o\(i)"))
            }
            let entries = try store.queueEntries()
            #expect(entries.map(\.collection) == expected.map(\.0))
            #expect(entries.map(\.objectID) == expected.map(\.1))
            #expect(entries.map(\.seq) == entries.map(\.seq).sorted())
            #expect(Set(entries.map(\.seq)).count == 20)
            #expect(Set(entries.map(\.idempotencyKey)).count == 20)
            #expect(try store.queueEntries(collection: "notes").map(\.objectID) == ["o0", "o3", "o6", "o9", "o12", "o15", "o18"])
            #expect(try store.queueCount(state: .pending) == 20)
            #expect(try store.queueCount(state: .inFlight) == 0)
        }
    }

    // MARK: Entries that are not pending are never coalesced into

    @Test func anEditWhileInFlightAppendsANewEntry() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try await todos.create(["id": "a", "n": 1])
            try await todos.create(["id": "b"])
            let create = try store.onlyEntry("todos", "a")
            try store.setQueueState(.inFlight, seq: create.seq)

            try await todos.patch("a", ["n": 2])
            var entries = try store.queueEntries(collection: "todos", id: "a")
            #expect(entries.map(\.kind) == [.create, .update])
            #expect(entries.map(\.state) == [.inFlight, .pending])
            #expect(entries[0].seq == create.seq)
            // The new entry goes to the end of the whole queue, after b's create.
            #expect(try store.queueEntries().map(\.objectID) == ["a", "b", "a"])

            // Later edits coalesce into the new pending entry, not the in-flight one.
            try await todos.patch("a", ["n": 3])
            entries = try store.queueEntries(collection: "todos", id: "a")
            #expect(entries.map(\.kind) == [.create, .update])
            #expect(try todos.find("a") == ["id": "a", "n": 3])

            try await todos.destroy("a")
            entries = try store.queueEntries(collection: "todos", id: "a")
            #expect(entries.map(\.kind) == [.create, .delete])
            #expect(entries.map(\.state) == [.inFlight, .pending])
            // The object stays as a tombstone: the create in flight must be followed by its delete.
            let object = try #require(try todos.object("a"))
            #expect(object.isLocallyDeleted)
            #expect(object.state == .deleted)
        }
    }

    @Test func aDeleteWhileACreateIsInFlightIsQueued() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try await todos.create(["id": "a"])
            try store.setQueueState(.inFlight, seq: try store.onlyEntry("todos", "a").seq)
            try await todos.destroy("a")
            let entries = try store.queueEntries(collection: "todos", id: "a")
            #expect(entries.map(\.kind) == [.create, .delete])
            #expect(try todos.object("a")?.isLocallyDeleted == true)
        }
    }

    @Test func anEditAfterAFailedEntryAppendsANewEntry() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try store.seedSynced("todos", ["id": "a", "n": 0], version: "v1")
            try await todos.patch("a", ["n": 1])
            let update = try store.onlyEntry("todos", "a")
            try store.setQueueState(.failed, seq: update.seq)

            try await todos.patch("a", ["n": 2])
            let entries = try store.queueEntries(collection: "todos", id: "a")
            #expect(entries.map(\.kind) == [.update, .update])
            #expect(entries.map(\.state) == [.failed, .pending])
            #expect(entries[0].seq == update.seq)
            #expect(try store.queueCount(state: .failed) == 1)
            #expect(try store.queueCount(state: .pending) == 1)
            #expect(try todos.find("a") == ["id": "a", "n": 2])
        }
    }

    @Test func aFailedCreateIsNotCancelledByADelete() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try await todos.create(["id": "a"])
            try store.setQueueState(.failed, seq: try store.onlyEntry("todos", "a").seq)
            try await todos.destroy("a")
            let entries = try store.queueEntries(collection: "todos", id: "a")
            #expect(entries.map(\.kind) == [.create, .delete])
            #expect(entries.map(\.state) == [.failed, .pending])
            #expect(try todos.object("a") != nil)
        }
    }
}
