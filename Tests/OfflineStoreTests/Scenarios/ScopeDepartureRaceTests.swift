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
        let backend = DepartureHookBackend(base: server)
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

/// Delegates to a backend, running a hook once before the next departure pull
/// (``Backend/pull(collection:since:continuing:fields:)``).
final class DepartureHookBackend: Backend {
    let base: any Backend
    private let hook = Locked<(@Sendable () -> Void)?>(nil)
    init(base: any Backend) { self.base = base }
    func beforeDeparturePull(_ run: @escaping @Sendable () -> Void) { hook.withLock { $0 = run } }
    func validate(id: String) throws { try base.validate(id: id) }
    func validate(id: String, in collection: String) throws { try base.validate(id: id, in: collection) }
    func capabilities() async throws -> BackendCapabilities { try await base.capabilities() }
    func prepare(collection: String) async throws { try await base.prepare(collection: collection) }
    func push(_ operations: [PushOperation], collection: String) async throws -> [PushOutcome] {
        try await base.push(operations, collection: collection)
    }
    func pull(collection: String, since cursor: String?, continuing: PullContinuation?) async throws -> PullPage {
        try await base.pull(collection: collection, since: cursor, continuing: continuing)
    }
    func pull(collection: String, since cursor: String?, continuing: PullContinuation?, fields: [String]) async throws -> PullPage {
        hook.withLock { run in defer { run = nil }; return run }?()
        return try await base.pull(collection: collection, since: cursor, continuing: continuing, fields: fields)
    }
    func ping() async throws { try await base.ping() }
    func fetch(collection: String, id: String) async throws -> RemoteChange? { try await base.fetch(collection: collection, id: id) }
    func search(collection: String, query: ServerQuery, continuing: PullContinuation?) async throws -> PullPage {
        try await base.search(collection: collection, query: query, continuing: continuing)
    }
}
