import Foundation
import OfflineStore
import Testing

/// Each conflict policy against both backends: a synced object edited locally and by
/// another client, then flushed.
@Suite struct ConflictScenarioTests {
    /// A store whose object "k" is synced as {"a": 1, "b": 1}, then edited locally
    /// (`local`) and on the server (`server`) by another client.
    static func conflicted(_ kind: BackendKind, policy: ConflictPolicy, local: JSONValue?, server: JSONValue?)
        async throws -> (any SyncHarness, ObjectStore, TemporaryStore)
    {
        let (harness, store, dir) = try await Harness.store(kind, policy: policy)
        let todos = store.collection("todos")
        try await todos.create(["id": "k", "a": 1, "b": 1])
        try await store.flush()
        if let local { try await todos.replace("k", with: local) } else { try await todos.destroy("k") }
        if let server { try await harness.serverPut("todos", "k", server) } else { try await harness.serverDelete("todos", "k") }
        return (harness, store, dir)
    }

    @Test(arguments: BackendKind.available)
    func preserveConflictExposesAllCopiesAndKeepLocalResends(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Self.conflicted(kind, policy: .preserveConflict,
                                                              local: ["id": "k", "a": 2, "b": 1], server: ["id": "k", "a": 3, "b": 1])
        let report = try await store.flush()
        #expect(report.conflictsDetected == 1 && report.conflicts == 1 && report.pushed == 0)
        let conflict = try #require(try store.conflicts(in: "todos").first)
        #expect(conflict.base == ["id": "k", "a": 1, "b": 1])
        #expect(conflict.local == ["id": "k", "a": 2, "b": 1])
        #expect(conflict.server == ["id": "k", "a": 3, "b": 1])
        #expect(conflict.serverVersion != nil)
        #expect(try await server.serverGet("todos", "k")?["a"] == 3)   // untouched
        #expect(try store.collection("todos").find("k")?["a"] == 2)    // the app still sees its edit

        try store.resolve("todos", id: "k", with: .keepLocal)
        try await store.flush()
        #expect(try await server.serverGet("todos", "k")?["a"] == 2)
        #expect(try store.collection("todos").object("k")?.state == .synced)
        #expect(try store.conflicts().isEmpty)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func clientWinsResendsOnTheServersVersion(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Self.conflicted(kind, policy: .clientWins,
                                                              local: ["id": "k", "a": 2, "b": 1], server: ["id": "k", "a": 3, "b": 1])
        let report = try await store.flush()
        #expect(report.conflictsResolved == 1 && report.conflicts == 0 && report.pushed == 1)
        #expect(try await server.serverGet("todos", "k")?["a"] == 2)
        #expect(try store.collection("todos").object("k")?.state == .synced)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func serverWinsDropsTheLocalEdit(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Self.conflicted(kind, policy: .serverWins,
                                                              local: ["id": "k", "a": 2, "b": 1], server: ["id": "k", "a": 3, "b": 1])
        let report = try await store.flush()
        #expect(report.conflictsResolved == 1 && report.pending == 0)
        #expect(try store.collection("todos").find("k")?["a"] == 3)
        #expect(try await server.serverGet("todos", "k")?["a"] == 3)
        #expect(try store.queueCount() == 0)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func mergeTakesFieldsChangedOnOneSide(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Self.conflicted(kind, policy: .merge,
                                                              local: ["id": "k", "a": 2, "b": 1], server: ["id": "k", "a": 1, "b": 3])
        try await store.flush()
        let merged: JSONValue = ["id": "k", "a": 2, "b": 3]
        #expect(try await server.serverGet("todos", "k") == merged)
        #expect(try store.collection("todos").find("k") == merged)
        #expect(try store.collection("todos").object("k")?.state == .synced)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func mergeOfOverlappingFieldsFallsBackToPreserve(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Self.conflicted(kind, policy: .merge,
                                                              local: ["id": "k", "a": 2, "b": 1], server: ["id": "k", "a": 3, "b": 1])
        let report = try await store.flush()
        #expect(report.conflicts == 1)
        #expect(try store.collection("todos").object("k")?.state == .conflicted)
        #expect(try await server.serverGet("todos", "k")?["a"] == 3)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func aCustomResolverSeesBaseLocalAndServer(_ kind: BackendKind) async throws {
        let resolver: ConflictResolver = { c in
            let sum = (c.local?["a"]?.intValue ?? 0) + (c.server?["a"]?.intValue ?? 0) - (c.base?["a"]?.intValue ?? 0)
            return .merged(["id": "k", "a": .int(sum), "b": 1])
        }
        let (server, store, _dir) = try await Self.conflicted(kind, policy: .custom(resolver),
                                                              local: ["id": "k", "a": 2, "b": 1], server: ["id": "k", "a": 3, "b": 1])
        try await store.flush()
        #expect(try await server.serverGet("todos", "k")?["a"] == 4)
        #expect(try store.collection("todos").find("k")?["a"] == 4)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func anEditAgainstAServerDeleteIsAConflictAndKeepLocalRecreates(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Self.conflicted(kind, policy: .preserveConflict,
                                                              local: ["id": "k", "a": 2, "b": 1], server: nil)
        try await store.flush()
        let conflict = try #require(try store.conflicts().first)
        #expect(conflict.server == nil && conflict.local?["a"] == 2)
        try store.resolve("todos", id: "k", with: .keepLocal)
        try await store.flush()
        #expect(try await server.serverGet("todos", "k") == ["id": "k", "a": 2, "b": 1])
        #expect(try store.collection("todos").object("k")?.state == .synced)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func aDeleteAgainstAServerEditIsAConflictAndKeepServerRestores(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Self.conflicted(kind, policy: .preserveConflict,
                                                              local: nil, server: ["id": "k", "a": 5, "b": 1])
        try await store.flush()
        let conflict = try #require(try store.conflicts().first)
        #expect(conflict.local == nil && conflict.server?["a"] == 5)
        #expect(try store.collection("todos").find("k") == nil)
        try store.resolve("todos", id: "k", with: .keepServer)
        #expect(try store.collection("todos").find("k")?["a"] == 5)
        #expect(try store.queueCount() == 0)
        #expect(try await server.serverGet("todos", "k")?["a"] == 5)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func refreshDetectsAConflictWithAPendingEditAndConflictsSurviveReopening(_ kind: BackendKind) async throws {
        let (server, store, dir) = try await Self.conflicted(kind, policy: .preserveConflict,
                                                             local: ["id": "k", "a": 2, "b": 1], server: ["id": "k", "a": 3, "b": 1])
        let report = try await store.refresh()
        #expect(report.conflictsDetected == 1 && report.conflicts == 1)
        try store.close()
        let reopened = try ObjectStore(path: dir.path("store.sqlite"), backend: server.backend)
        let conflict = try #require(try reopened.conflicts().first)
        #expect(conflict.local?["a"] == 2 && conflict.server?["a"] == 3 && conflict.base?["a"] == 1)
        try reopened.resolve("todos", id: "k", with: .merged(["id": "k", "a": 9, "b": 1]))
        try await reopened.flush()
        #expect(try await server.serverGet("todos", "k")?["a"] == 9)
        #expect(try reopened.collection("todos").object("k")?.state == .synced)
    }
}
