import Foundation
import OfflineStore
import Testing

/// Server search (RhoConnect `search`): a filtered subset pulled into the store.
@Suite struct SearchScenarioTests {
    @Test(arguments: BackendKind.available)
    func searchPullsOnlyTheMatchingSubsetWithProgress(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind, pageSize: 3)
        for i in 0..<10 {
            try await server.serverPut("todos", "t\(i)", ["owner": i % 2 == 0 ? "ana" : "bo", "n": .int(Int64(i))])
        }
        let seen = Locked<[Int]>([])
        let result = try await store.search("todos", query: ServerQuery([.equal("owner", "ana")])) { p in
            seen.withLock { $0.append(p.processed) }
        }
        #expect(Set(result.ids) == ["t0", "t2", "t4", "t6", "t8"])
        #expect(result.pages == 2)
        #expect(seen.withLock { $0 } == [3, 5])
        let local = try store.collection("todos").findAll(orderBy: [.ascending("id")]).compactMap { $0["id"]?.stringValue }
        #expect(local == ["t0", "t2", "t4", "t6", "t8"])

        let ranged = try await store.search("todos", query: ServerQuery([.greaterThan("n", 6), .isIn("owner", ["bo"])]))
        #expect(Set(ranged.ids) == ["t7", "t9"])
        #expect(try store.collection("todos").count() == 7)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func searchCanFlushLocalChangesFirst(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind)
        try await server.serverPut("todos", "s", ["owner": "ana"])
        try await store.collection("todos").create(["id": "mine", "owner": "ana"])
        let result = try await store.search("todos", query: ServerQuery([.equal("owner", "ana")]), syncChanges: true)
        #expect(Set(result.ids) == ["s", "mine"])
        #expect(try await server.serverGet("todos", "mine") == ["id": "mine", "owner": "ana"])
        #expect(try store.queueCount() == 0)
        #expect(try store.collection("todos").object("mine")?.state == .synced)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func searchOfflineFailsAndBadQueriesAreRefused(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind)
        let bad = await #expect(throws: OfflineStoreError.self) {
            try await store.search("todos", query: ServerQuery([.equal("a;drop", "x")]))
        }
        #expect(bad?.code == .invalidFieldPath)
        server.setUnreachable(true)
        let offline = await #expect(throws: OfflineStoreError.self) {
            try await store.search("todos", query: ServerQuery([.equal("owner", "ana")]))
        }
        #expect(offline?.code == .offline)
        #expect(try store.collection("todos").count() == 0)
        _ = _dir
    }
}
