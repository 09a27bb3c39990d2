import Foundation
import OfflineStore
import OfflineStoreTesting
import Testing

/// Object change streams, query observation, per-object flags and the pending count (SPEC §10).
@Suite(.timeLimit(.minutes(5))) struct ObjectObservationTests {
    static let collections = [CollectionDescriptor("todos"), CollectionDescriptor("notes")]

    /// The next `count` elements of a sequence.
    static func take<S: AsyncSequence>(_ count: Int, from sequence: S) async throws -> [S.Element] {
        var taken: [S.Element] = []
        var iterator = sequence.makeAsyncIterator()
        while taken.count < count, let next = try await iterator.next() { taken.append(next) }
        return taken
    }

    @Test func localAndServerChangesArriveWithTheirOrigin() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), collections: Self.collections) { store, backend in
            let changes = store.changes(in: "todos")
            let todos = store.collection("todos")
            try await todos.create(["id": "a", "title": "A"])
            try await store.collection("notes").create(["id": "n", "text": "other collection"])
            try await todos.patch("a", ["title": "AA"])
            try await store.flush()                         // confirms the local edit: no change
            backend.put(collection: "todos", id: "s", record: ["id": "s", "title": "from server"])
            backend.put(collection: "todos", id: "a", record: ["id": "a", "title": "changed on server"])
            try await store.refresh()
            try await todos.destroy("s")
            let seen = try await Self.take(5, from: changes)
            #expect(seen == [
                ObjectChange(collection: "todos", id: "a", kind: .created, origin: .local),
                ObjectChange(collection: "todos", id: "a", kind: .updated, origin: .local),
                ObjectChange(collection: "todos", id: "s", kind: .created, origin: .server),
                ObjectChange(collection: "todos", id: "a", kind: .updated, origin: .server),
                ObjectChange(collection: "todos", id: "s", kind: .deleted, origin: .local),
            ])
        }
    }

    @Test func aRolledBackWriteReportsNoChange() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), collections: Self.collections) { store, _ in
            let changes = store.changes()
            let todos = store.collection("todos")
            await expectStoreError(.invalidOperation) {
                try await store.transaction { tx in
                    try tx.create(["id": "ghost"], in: "todos")
                    throw OfflineStoreError(.invalidOperation, "abort")
                }
            }
            try await todos.create(["id": "real"])
            let seen = try await Self.take(1, from: changes)
            #expect(seen.map(\.id) == ["real"])
        }
    }

    @Test func aQueryIsObservedAsItsResultsChange() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), collections: Self.collections) { store, backend in
            let todos = store.collection("todos")
            try await todos.create(["id": "a", "done": false])
            let open = todos.observeAll(where: .equal("done", false), orderBy: [.ascending("id")])
            var iterator = open.makeAsyncIterator()
            #expect(try await iterator.next()?.compactMap { $0["id"]?.stringValue } == ["a"])
            try await todos.create(["id": "b", "done": false])
            #expect(try await iterator.next()?.compactMap { $0["id"]?.stringValue } == ["a", "b"])
            try await store.flush()
            backend.put(collection: "todos", id: "a", record: ["id": "a", "done": true])
            try await store.refresh()
            #expect(try await iterator.next()?.compactMap { $0["id"]?.stringValue } == ["b"])
        }
    }

    @Test func flagsFollowTheObjectThroughSync() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), collections: Self.collections) { store, backend in
            let todos = store.collection("todos")
            try await todos.create(["id": "a", "title": "x"])
            var flags = try #require(try todos.object("a"))
            #expect(flags.hasPendingWrites && !flags.hasConflict && !flags.hasFailedWrite)
            backend.inject(.rejectOperation(id: "a", status: 422))
            try await store.flush()
            flags = try #require(try todos.object("a"))
            #expect(flags.hasFailedWrite && !flags.hasConflict)
            try store.retry("todos", id: "a")
            try await store.flush()
            flags = try #require(try todos.object("a"))
            #expect(!flags.hasPendingWrites && !flags.hasConflict && !flags.hasFailedWrite)
            backend.put(collection: "todos", id: "a", record: ["id": "a", "title": "server"])
            try await todos.patch("a", ["title": "local"])
            try await store.refresh()
            flags = try #require(try todos.object("a"))
            #expect(flags.hasConflict && flags.hasPendingWrites)
        }
    }

    @Test func objectAndPendingCountObservationsFollowEdits() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), collections: Self.collections) { store, _ in
            let todos = store.collection("todos")
            var object = todos.observeObject("a").makeAsyncIterator()
            var pending = store.observePendingCount().makeAsyncIterator()
            #expect(try await pending.next() == 0)
            #expect(try await object.next() == .some(nil))
            try await todos.create(["id": "a", "title": "x"])
            #expect(try await pending.next() == 1)
            let created = try await object.next()
            #expect(created??.value == ["id": "a", "title": "x"])
            #expect(created??.hasPendingWrites == true)
            try await store.flush()
            #expect(try await pending.next() == 0)
            #expect(try await object.next()??.hasPendingWrites == false)
        }
    }
}
