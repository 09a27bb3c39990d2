import Foundation
import OfflineStore
import OfflineStoreTesting
import Testing

/// A record the scoped pull brought and that the server deleted before the departure pull of
/// the same refresh read its tombstone: the tombstone is applied in that refresh. Before, the
/// departure pull skipped every id the scoped pull had brought, and on Kinto, whose scoped
/// pages never list tombstones, a cursor that had passed the deletion lost it for good
/// (`ScopedConcurrentWritersTests` under load: a batch-deleted record stayed local).
@Suite(.timeLimit(.minutes(5))) struct ScopeDepartureRaceTests {
    @Test func aDeletionBetweenTheScopedPullAndTheDeparturePullIsApplied() async throws {
        let server = InMemoryBackend()
        let backend = PageHookBackend(base: server)
        try await withTemporaryStore(configuration: .deferred, backend: backend) { store in
            var todos = CollectionDescriptor("todos")
            todos.syncScope = ServerQuery([.equal("region", "north")])
            try store.register(todos)
            server.put(collection: "todos", id: "a", record: ["region": "north", "title": "A"])
            server.put(collection: "todos", id: "b", record: ["region": "north", "title": "B"])
            try await store.refresh()

            // The scoped pull brings a's new title; the server deletes a before the departure pull.
            server.put(collection: "todos", id: "a", record: ["region": "north", "title": "A2"])
            backend.beforeDeparturePull { server.delete(collection: "todos", id: "a") }
            try await store.refresh()
            #expect(try store.collection("todos").find("a") == nil)
            #expect(try store.collection("todos").find("b")?["title"] == "B")
        }
    }

    /// The interleaving the simulator found (seed 164 of the scope model): a scoped refresh
    /// applied its first page and stopped before the departure pull; the first page's cursor
    /// had passed a record that left the scope and one the server deleted, which only the
    /// departure pull lists (Kinto's scoped pages list neither). The cursor used to be stored
    /// with that page, and every later departure pull started above both changes: the two
    /// copies stayed for good. The cursor now waits for the departure pull (ScopedCursorRule).
    @Test func aScopedRefreshThatStopsBeforeItsDeparturePullLosesNoDeparture() async throws {
        let server = InMemoryBackend(pageSize: 1)
        try await withTemporaryStore(configuration: .deferred, backend: server) { store in
            var todos = CollectionDescriptor("todos")
            todos.syncScope = ServerQuery([.equal("region", "north")])
            try store.register(todos)
            for id in ["a", "b", "c"] { server.put(collection: "todos", id: id, record: ["region": "north"]) }
            try await store.refresh()

            server.put(collection: "todos", id: "a", record: ["region": "south"])      // leaves the scope
            server.delete(collection: "todos", id: "b")                                // deleted
            server.put(collection: "todos", id: "d", record: ["region": "north"])      // the first page, above both
            server.put(collection: "todos", id: "e", record: ["region": "north"])      // the second page
            server.inject(.delay(.zero).only(.pull))                                   // the first page goes through
            server.inject(.offline.only(.pull))                                        // the second does not
            let stopped = await #expect(throws: OfflineStoreError.self) { try await store.refresh() }
            #expect(stopped?.code == .offline)
            #expect(try store.collection("todos").find("d") != nil, "the first page was applied")

            try await store.refresh()
            let ids = try store.collection("todos").findAll().compactMap { $0["id"]?.stringValue }.sorted()
            #expect(ids == ["c", "d", "e"])
        }
    }
}
