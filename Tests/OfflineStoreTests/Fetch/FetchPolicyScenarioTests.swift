import Foundation
import OfflineStore
import Testing

/// Fetch policies (SPEC §4), online and offline, against the in-memory and the real Kinto server.
@Suite(.timeLimit(.minutes(5))) struct FetchPolicyScenarioTests {
    /// A store whose "todos" holds a = {v: 1} from the server, which now has v: 2.
    private func staleStore(_ server: any SyncHarness) async throws -> (ObjectStore, TemporaryStore) {
        let (store, dir) = try server.makeStore()
        try await server.serverPut("todos", "a", ["v": 1])
        try await store.refresh()
        try await server.serverPut("todos", "a", ["v": 2])
        return (store, dir)
    }

    @Test(arguments: BackendKind.available)
    func fromCacheNeverAsksTheServer(_ kind: BackendKind) async throws {
        let server = try await Harness.make(kind)
        let (store, _dir) = try await staleStore(server)
        let todos = store.collection("todos")
        try await server.serverPut("todos", "b", ["v": 1])
        #expect(try await todos.fetch("a", policy: .fromCache) == ["id": "a", "v": 1])
        #expect(try await todos.fetch("b", policy: .fromCache) == nil)
        server.setUnreachable(true)
        #expect(try await todos.fetch("a") == ["id": "a", "v": 1])  // the store default is fromCache
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func fromServiceReadsTheServerOnlineAndFailsOffline(_ kind: BackendKind) async throws {
        let server = try await Harness.make(kind)
        let (store, _dir) = try await staleStore(server)
        let todos = store.collection("todos")
        #expect(try await todos.fetch("a", policy: .fromService) == ["id": "a", "v": 2])
        #expect(try todos.persistent("a") == ["id": "a", "v": 2])
        #expect(try todos.object("a")?.state == .synced)

        try await server.serverPut("todos", "a", ["v": 3])
        server.setUnreachable(true)
        let error = await #expect(throws: OfflineStoreError.self) { try await todos.fetch("a", policy: .fromService) }
        #expect(error?.code == .offline)
        #expect(try todos.find("a") == ["id": "a", "v": 2])
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func fromServiceIfOnlineFallsBackToTheCache(_ kind: BackendKind) async throws {
        let server = try await Harness.make(kind)
        let (store, _dir) = try await staleStore(server)
        let todos = store.collection("todos")
        server.setUnreachable(true)
        #expect(try await todos.fetch("a", policy: .fromServiceIfOnline) == ["id": "a", "v": 1])
        #expect(try await todos.fetchAll(policy: .fromServiceIfOnline) == [["id": "a", "v": 1]])
        server.setUnreachable(false)
        #expect(try await todos.fetch("a", policy: .fromServiceIfOnline) == ["id": "a", "v": 2])
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func fromServiceOnCacheMissAsksOnlyForMissingObjects(_ kind: BackendKind) async throws {
        let server = try await Harness.make(kind)
        let (store, _dir) = try await staleStore(server)
        let todos = store.collection("todos")
        try await server.serverPut("todos", "b", ["v": 7])
        #expect(try await todos.fetch("a", policy: .fromServiceOnCacheMiss) == ["id": "a", "v": 1])  // hit: stale kept
        #expect(try await todos.fetch("b", policy: .fromServiceOnCacheMiss) == ["id": "b", "v": 7])  // miss: fetched
        #expect(try todos.object("b")?.state == .synced)

        try await server.serverPut("todos", "c", ["v": 8])
        server.setUnreachable(true)
        #expect(try await todos.fetch("b", policy: .fromServiceOnCacheMiss) == ["id": "b", "v": 7])
        let error = await #expect(throws: OfflineStoreError.self) { try await todos.fetch("c", policy: .fromServiceOnCacheMiss) }
        #expect(error?.code == .offline)
        #expect(try todos.object("c") == nil)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func fromCacheScheduleRefreshAnswersNowAndReportsFresherData(_ kind: BackendKind) async throws {
        let server = try await Harness.make(kind)
        let (store, _dir) = try await staleStore(server)
        let todos = store.collection("todos")
        let (outcomes, continuation) = AsyncStream<FetchRefreshOutcome>.makeStream()
        var next = outcomes.makeAsyncIterator()

        #expect(try await todos.fetch("a", policy: .fromCacheScheduleRefresh) { continuation.yield($0) } == ["id": "a", "v": 1])
        #expect(await next.next() == .updated(collection: "todos", ids: ["a"]))
        #expect(try todos.find("a") == ["id": "a", "v": 2])

        _ = try await todos.fetch("a", policy: .fromCacheScheduleRefresh) { continuation.yield($0) }
        #expect(await next.next() == .unchanged(collection: "todos"))

        try await server.serverPut("todos", "a", ["v": 3])
        server.setUnreachable(true)
        #expect(try await todos.fetch("a", policy: .fromCacheScheduleRefresh) { continuation.yield($0) } == ["id": "a", "v": 2])
        guard case .failed(let error) = await next.next() else { Issue.record("expected a failed refresh"); return }
        #expect(error.code == .offline)
        #expect(try todos.find("a") == ["id": "a", "v": 2])
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func fetchedServerCopiesNeverOverwriteALocalEdit(_ kind: BackendKind) async throws {
        let server = try await Harness.make(kind)
        let (store, _dir) = try await staleStore(server)
        let todos = store.collection("todos")
        try await todos.patch("a", ["mine": true])
        #expect(try await todos.fetch("a", policy: .fromService) == ["id": "a", "v": 1, "mine": true])
        let object = try #require(try todos.object("a"))
        #expect(object.local == ["id": "a", "v": 1, "mine": true])
        #expect(object.persistent == ["id": "a", "v": 2])
        #expect(object.state == .conflicted)  // the server moved on from the edit's base (preserveConflict)
        #expect(try store.queueCount() == 1)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func fetchAllFromServicePullsTheCollectionAndDropsServerDeletions(_ kind: BackendKind) async throws {
        let server = try await Harness.make(kind, pageSize: 2)
        let (store, _dir) = try await staleStore(server)
        let todos = store.collection("todos")
        for i in 0..<5 { try await server.serverPut("todos", "n\(i)", ["v": .int(Int64(i))]) }
        let all = try await todos.fetchAll(orderBy: [.ascending("id")], policy: .fromService)
        #expect(all.compactMap { $0["id"]?.stringValue } == ["a", "n0", "n1", "n2", "n3", "n4"])
        #expect(try todos.find("a") == ["id": "a", "v": 2])

        try await server.serverDelete("todos", "n0")
        #expect(try await todos.fetch("n0", policy: .fromService) == nil)
        #expect(try todos.object("n0") == nil)
        _ = _dir
    }

    @Test func perCollectionPolicyComesFromTheConfiguration() async throws {
        let server = try await Harness.make(.memory)
        let dir = try TemporaryStore()
        var configuration = ObjectStore.Configuration()
        configuration.fetchPolicies["todos"] = .fromService
        let store = try ObjectStore(path: dir.path("s.sqlite"), configuration: configuration, backend: server.backend)
        try store.register(CollectionDescriptor("todos"))
        try await server.serverPut("todos", "x", ["v": 1])
        #expect(try await store.collection("todos").fetch("x") == ["id": "x", "v": 1])
        #expect(try await store.collection("todos").fetch("x", policy: .fromCache) == ["id": "x", "v": 1])
    }
}
