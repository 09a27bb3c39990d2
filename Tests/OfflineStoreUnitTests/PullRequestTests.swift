import Foundation
import OfflineStore
import OfflineStoreTesting
import Testing

/// The one pull requirement: a request value, the scope the engine applies again whatever the
/// backend did with it, and the whole-page convenience.
@Suite("Pull requests", .timeLimit(.minutes(2)))
struct PullRequestTests {
    /// A backend that drops every scope (a server that cannot filter, a delta link that forgets
    /// the filter) and records the requests it received.
    final class ScopeDroppingBackend: Backend {
        let base = InMemoryBackend()
        let received = Locked<[PullRequest]>([])
        func capabilities() async throws -> BackendCapabilities { try await base.capabilities() }
        func prepare(collection: String) async throws { try await base.prepare(collection: collection) }
        func push(_ operations: [PushOperation], collection: String) async throws -> [PushOutcome] {
            try await base.push(operations, collection: collection)
        }
        func pull(_ request: PullRequest, delivering deliver: ([RemoteChange]) async throws -> Void) async throws -> PullPage {
            received.withLock { $0.append(request) }
            var unscoped = request
            unscoped.scope = nil
            let page = try await base.pull(unscoped)
            try await deliver(page.changes)
            return PullPage(changes: [], cursor: page.cursor, next: page.next)
        }
        func ping() async throws {}
    }

    @Test func theEngineKeepsOnlyTheScopeOfWhatABackendDeliversUnfiltered() async throws {
        let backend = ScopeDroppingBackend()
        backend.base.put(collection: "todos", id: "n", record: ["region": "north"])
        backend.base.put(collection: "todos", id: "s", record: ["region": "south"])
        let store = try ObjectStore.inMemory(configuration: ObjectStore.Configuration(), backend: backend)
        defer { try? store.close() }
        var todos = CollectionDescriptor("todos")
        todos.syncScope = ServerQuery([.equal("region", "north")])
        try store.register(todos)
        #expect(try await store.refresh().pulled == 1)
        #expect(try store.collection("todos").find("n") != nil)
        #expect(try store.collection("todos").find("s") == nil, "a record outside the scope is not stored")
        let first = try #require(backend.received.withLock { $0.first })
        #expect(first.scope == todos.syncScope && first.cursor == nil && first.continuation == nil)
    }

    @Test func keepingAScopeKeepsMatchingRecordsAndEveryTombstone() {
        let page = PullPage(changes: [
            RemoteChange(id: "n", record: ["id": "n", "region": "north"], version: "1"),
            RemoteChange(id: "s", record: ["id": "s", "region": "south"], version: "2"),
            RemoteChange(id: "gone", record: nil, version: "3"),
        ], cursor: "3", next: nil)
        #expect(page.keeping(ServerQuery([.equal("region", "north")])).changes.map(\.id) == ["n", "gone"])
        #expect(page.keeping(nil).changes.map(\.id) == ["n", "s", "gone"])
        #expect(page.keeping(ServerQuery([.equal("region", "north")])).cursor == "3")
    }

    @Test func aContinuedRequestKeepsEverythingButTheContinuation() {
        let request = PullRequest(collection: "c", cursor: "7", scope: ServerQuery([.equal("a", 1)]),
                                  hints: .init(needsDeletions: false, fields: ["a"]))
        let next = request.continuing(PullContinuation(token: "p2"))
        #expect(next.continuation == PullContinuation(token: "p2"))
        #expect(next.collection == "c" && next.cursor == "7" && next.scope == request.scope && next.hints == request.hints)
    }

    @Test func theWholePagePullHoldsWhatWasDeliveredThenTheRest() async throws {
        struct Splitting: Backend {
            func capabilities() async throws -> BackendCapabilities { BackendCapabilities(maxBatchSize: 1) }
            func prepare(collection: String) async throws {}
            func push(_ operations: [PushOperation], collection: String) async throws -> [PushOutcome] { [] }
            func pull(_ request: PullRequest, delivering deliver: ([RemoteChange]) async throws -> Void) async throws -> PullPage {
                try await deliver([RemoteChange(id: "a", record: ["id": "a"], version: "1")])
                return PullPage(changes: [RemoteChange(id: "b", record: ["id": "b"], version: "2")], cursor: "2", next: nil)
            }
            func ping() async throws {}
        }
        let page = try await Splitting().pull(PullRequest(collection: "c"))
        #expect(page.changes.map(\.id) == ["a", "b"])
        #expect(page.cursor == "2")
    }

    @Test func theTraitsDefaultToAKintoLikeServer() {
        struct Minimal: Backend {
            func capabilities() async throws -> BackendCapabilities { BackendCapabilities(maxBatchSize: 1) }
            func prepare(collection: String) async throws {}
            func push(_ operations: [PushOperation], collection: String) async throws -> [PushOutcome] { [] }
            func pull(_ request: PullRequest, delivering deliver: ([RemoteChange]) async throws -> Void) async throws -> PullPage {
                PullPage(changes: [], cursor: nil, next: nil)
            }
            func ping() async throws {}
        }
        #expect(Minimal().traits(of: "c") == BackendTraits())
        #expect(BackendTraits() == BackendTraits(associations: [:], assignsIDs: false, sweepsDeletions: false,
                                                 refreshesBeforeResendingCreates: false, serverManagedFields: []))
        #expect(throws: Never.self) { try Minimal().validate(id: "any/id", in: "c") }
    }
}
