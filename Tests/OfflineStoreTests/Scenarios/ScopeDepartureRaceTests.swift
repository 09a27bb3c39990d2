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
}
