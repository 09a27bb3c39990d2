import Foundation
import OfflineStore
import Testing

/// Sync scopes against the in-memory backend (filtering here) and a real Kinto (filter
/// parameters on the server): only matching records are pulled; records that leave the
/// scope go locally, with the reason; a pending edit keeps its object; a changed scope pulls
/// only what it adds (Docs/Policies.md, "Sync scopes").
@Suite(.timeLimit(.minutes(5))) struct SyncScopeScenarioTests {
    static let north = ServerQuery([.equal("region", "north")])

    /// A store whose `todos` keep only `scope`, and a server holding a, b (north) and c (south).
    static func scoped(_ kind: BackendKind, scope: ServerQuery = north, policy: ConflictPolicy = .preserveConflict)
        async throws -> (any SyncHarness, ObjectStore, TemporaryStore) {
        let (server, store, dir) = try await Harness.store(kind, policy: policy)
        var todos = CollectionDescriptor("todos", conflictPolicy: policy)
        todos.syncScope = scope
        try store.register(todos)
        try await server.serverPut("todos", "a", ["region": "north", "title": "A"])
        try await server.serverPut("todos", "b", ["region": "north", "title": "B"])
        try await server.serverPut("todos", "c", ["region": "south", "title": "C"])
        return (server, store, dir)
    }

    static func ids(_ store: ObjectStore) throws -> [String] {
        try store.collection("todos").findAll().compactMap { $0["id"]?.stringValue }.sorted()
    }

    @Test(arguments: BackendKind.available)
    func aScopedCollectionPullsOnlyMatchingRecords(_ kind: BackendKind) async throws {
        let (_, store, _dir) = try await Self.scoped(kind)
        let report = try await store.refresh()
        #expect(try Self.ids(store) == ["a", "b"])
        #expect(report.pulled == 2)
        #expect(try await store.refresh().pulled == 0, "nothing changed: nothing pulled")
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func aRecordMovedOutOfScopeByAnotherClientGoesWithItsReason(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Self.scoped(kind)
        try await store.refresh()
        let changes = store.changes(in: "todos")
        try await server.serverPut("todos", "b", ["region": "south", "title": "B"])
        try await server.serverDelete("todos", "a")
        let report = try await store.refresh()
        #expect(try Self.ids(store) == [])
        #expect(report.leftScope == 1)
        var seen: [String: ObjectChange] = [:]
        for await change in changes {
            seen[change.id] = change
            if seen.count == 2 { break }
        }
        #expect(seen["b"]?.kind == .deleted && seen["b"]?.reason == .leftScope)
        #expect(seen["a"]?.kind == .deleted && seen["a"]?.reason == nil, "a deletion on the server is no departure")
        #expect(try await server.serverGet("todos", "b")?["region"] == "south", "the record stays on the server")
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func anObjectWithAPendingEditStaysAndItsEditIsPushed(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Self.scoped(kind, policy: .clientWins)
        try await store.refresh()
        try await server.serverPut("todos", "a", ["region": "south", "title": "A"])
        try await store.collection("todos").patch("a", ["title": "mine"])
        let report = try await store.refresh()
        #expect(report.leftScope == 0)
        #expect(try store.collection("todos").find("a")?["title"] == "mine", "the pending edit keeps its object")
        try await store.flush()
        #expect(try await server.serverGet("todos", "a")?["title"] == "mine")
        // Client wins: the whole local copy went, so the record is back in the scope.
        #expect(try await server.serverGet("todos", "a")?["region"] == "north")
        #expect(try await store.refresh().leftScope == 0)
        #expect(try Self.ids(store) == ["a", "b"])
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func aLocalCreateOutsideTheScopeIsPushed(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Self.scoped(kind)
        try await store.refresh()
        try await store.collection("todos").create(["id": "d", "region": "east", "title": "D"])
        try await store.flush()
        #expect(try await server.serverGet("todos", "d")?["region"] == "east")
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func wideningTheScopePullsOnlyWhatItAddsAndNarrowingItRemovesTheRest(_ kind: BackendKind) async throws {
        let (_, store, _dir) = try await Self.scoped(kind)
        try await store.refresh()
        var todos = try store.descriptor(of: "todos")
        todos.syncScope = ServerQuery([.isIn("region", ["north", "south"])])
        try store.register(todos)
        let widened = try await store.refresh()
        #expect(widened.pulled == 1, "only c: a and b are not read again")
        #expect(try Self.ids(store) == ["a", "b", "c"])

        let changes = store.changes(in: "todos")
        todos.syncScope = ServerQuery([.equal("region", "south")])
        try store.register(todos)
        #expect(try Self.ids(store) == ["c"], "a and b left with the scope at once")
        var reasons: [String: ObjectChange.Reason?] = [:]
        for await change in changes {
            reasons[change.id] = change.reason
            if reasons.count == 2 { break }
        }
        #expect(reasons == ["a": .leftScope, "b": .leftScope])
        #expect(try await store.refresh().pulled == 0, "nothing the narrower scope adds")
        _ = _dir
    }

    @Test func aChangedScopeIsCaughtUpOnceEvenAcrossReopening() async throws {
        let (_, store, dir) = try await Self.scoped(.memory, scope: ServerQuery([.equal("region", "south")]))
        try await store.refresh()
        #expect(try Self.ids(store) == ["c"])
        var todos = try store.descriptor(of: "todos")
        todos.syncScope = nil      // the whole collection: a and b still have to come
        try store.register(todos)
        try store.close()
        let reopened = try ObjectStore(path: dir.path("store.sqlite"), backend: store.backend)
        #expect(try await reopened.refresh().pulled == 2)
        #expect(try Self.ids(reopened) == ["a", "b", "c"])
        #expect(try await reopened.refresh().pulled == 0)
    }

    @Test func badScopesAreRefusedAndChangeNothing() async throws {
        let (_, store, _dir) = try await Self.scoped(.memory)
        var bad = CollectionDescriptor("todos")
        bad.syncScope = ServerQuery([.equal("a.b", "x")])
        #expect { try store.register(bad) } throws: { ($0 as? OfflineStoreError)?.code == .invalidFieldPath }
        var local = CollectionDescriptor("drafts", localOnly: true)
        local.syncScope = Self.north
        #expect { try store.register(local) } throws: { ($0 as? OfflineStoreError)?.code == .invalidOperation }
        #expect(try store.descriptor(of: "todos").syncScope == Self.north)
        _ = _dir
    }
}

/// What a scoped refresh asks a real Kinto: the scope as filter parameters, and the
/// departure pull with only ids, versions, deletions and the scope's fields.
@Suite(.timeLimit(.minutes(5))) struct SyncScopeKintoRequestTests {
    @Test(.liveServer) func theScopeGoesToKintoAsFiltersAndTheDeparturePullIsLight() async throws {
        let wire = WireFaultTransport(base: URLSessionTransport())
        let bucket = KintoServer.uniqueName("scope")
        let backend = try KintoServer.backend(bucket: bucket, timeout: .seconds(30), pageSize: 10_000, transport: wire)
        var todos = CollectionDescriptor("todos")
        todos.syncScope = SyncScopeScenarioTests.north
        try await withTemporaryStore(backend: backend, collections: [todos]) { store in
            try await store.collection("todos").create(["id": "a", "region": "north"])
            try await store.sync()
            try await store.refresh()
            let gets = wire.requestLines.filter { $0.hasPrefix("GET") && $0.contains("/records") }
                .map { $0.removingPercentEncoding ?? $0 }
            // Kinto takes filter values as JSON: "north" with its quotes.
            #expect(gets.contains { $0.contains(#"region="north""#) }, "\(gets)")
            #expect(gets.contains { $0.contains("_fields=id,last_modified,deleted,region") }, "\(gets)")
            #expect(!gets.contains { !$0.contains(#"region="north""#) && !$0.contains("_fields=") }, "no unfiltered pull: \(gets)")
        }
    }
}
