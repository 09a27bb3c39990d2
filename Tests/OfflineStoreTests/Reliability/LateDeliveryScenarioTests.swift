import Foundation
import OfflineStore
import OfflineStoreTesting
import Testing

/// A create whose answer was lost may reach the server after the store resent it and the
/// app deleted the object (Docs/Sync.md, "Late deliveries"). "Another client" putting the
/// exact payload the store sent plays that late delivery here; `LateDeliveryTests` replays
/// it on the wire.
@Suite(.timeLimit(.minutes(5))) struct LateDeliveryScenarioTests {
    /// A store whose create `k` = `{"a": 1}` was applied with its answer lost, resent
    /// (recognised as its own write), then deleted with the delete acknowledged.
    static func deletedAfterALostCreate(_ kind: BackendKind, window: Duration? = nil)
        async throws -> (any SyncHarness, ObjectStore, TemporaryStore) {
        let server = try await Harness.make(kind)
        let temporary = try TemporaryStore(configuration: .deferred.with { if let window { $0.lateDeliveryWindow = window } },
                                           backend: server.backend, collections: [CollectionDescriptor("todos")])
        let store = temporary.store
        _ = try await store.collection("todos").create(["id": "k", "a": 1])
        server.loseNextPushResponse()
        await expectStoreError(.timeout) { try await store.sync() }
        #expect(try await store.sync().pushed == 1)  // the resend: our own write
        try await store.collection("todos").destroy("k")
        #expect(try await store.sync().pushed == 1)
        #expect(try await server.serverGet("todos", "k") == nil)
        return (server, store, temporary)
    }

    @Test(arguments: BackendKind.available)
    func ourLateCreateAfterOurDeleteIsDeletedAgain(_ kind: BackendKind) async throws {
        let (server, store, dir) = try await Self.deletedAfterALostCreate(kind)
        defer { try? store.close(); _ = dir }
        try await server.serverPut("todos", "k", ["a": 1])  // the lost create arrives late
        let pulled = try await store.sync()
        #expect(pulled.lateDeliveriesUndone == 1 && pulled.conflictsDetected == 0)
        #expect(try store.collection("todos").find("k") == nil)
        #expect(try store.collection("todos").object("k")?.state == .deleted)
        let pushed = try await store.sync()
        #expect(pushed.pushed == 1 && pushed.pending == 0 && pushed.lateDeliveriesUndone == 0)
        #expect(try store.collection("todos").object("k") == nil)
        #expect(try await server.serverGet("todos", "k") == nil)
    }

    @Test(arguments: BackendKind.available)
    func anotherClientsRecreateIsKept(_ kind: BackendKind) async throws {
        let (server, store, dir) = try await Self.deletedAfterALostCreate(kind)
        defer { try? store.close(); _ = dir }
        try await server.serverPut("todos", "k", ["a": 2])  // a genuine re-create: not what we sent
        let report = try await store.sync()
        #expect(report.lateDeliveriesUndone == 0 && report.pulled == 1)
        #expect(try store.collection("todos").find("k") == ["id": "k", "a": 2])
        _ = try await store.sync()
        #expect(try await server.serverGet("todos", "k") == ["id": "k", "a": 2])
    }

    @Test(arguments: BackendKind.available)
    func anotherClientsEditBeforeTheUndoIsSentWins(_ kind: BackendKind) async throws {
        let (server, store, dir) = try await Self.deletedAfterALostCreate(kind)
        defer { try? store.close(); _ = dir }
        try await server.serverPut("todos", "k", ["a": 1])
        #expect(try await store.refresh().lateDeliveriesUndone == 1)  // the undo is queued
        try await server.serverPut("todos", "k", ["a": 1, "b": 2])  // someone edits the record meanwhile
        let report = try await store.sync()  // the undo meets their version: theirs stands
        #expect(report.conflictsDetected == 0 && report.conflicts == 0 && report.pending == 0)
        #expect(try store.collection("todos").find("k") == ["id": "k", "a": 1, "b": 2])
        #expect(try await server.serverGet("todos", "k") == ["id": "k", "a": 1, "b": 2])
    }

    @Test(arguments: BackendKind.available)
    func anotherClientsEditPulledBeforeTheUndoIsSentWins(_ kind: BackendKind) async throws {
        let (server, store, dir) = try await Self.deletedAfterALostCreate(kind)
        defer { try? store.close(); _ = dir }
        try await server.serverPut("todos", "k", ["a": 1])
        #expect(try await store.refresh().lateDeliveriesUndone == 1)
        try await server.serverPut("todos", "k", ["a": 3])
        let report = try await store.refresh()  // their version meets the queued undo: theirs stands
        #expect(report.conflictsDetected == 0 && report.conflicts == 0 && report.pending == 0)
        #expect(try store.collection("todos").object("k")?.state == .synced)
        #expect(try store.collection("todos").find("k") == ["id": "k", "a": 3])
    }

    @Test(arguments: BackendKind.available)
    func ourRecreateMeetingOurLateCreateIsNoConflict(_ kind: BackendKind) async throws {
        let (server, store, dir) = try await Self.deletedAfterALostCreate(kind)
        defer { try? store.close(); _ = dir }
        try await server.serverPut("todos", "k", ["a": 1])  // arrives late, unseen yet
        _ = try await store.collection("todos").create(["id": "k", "a": 5])  // the app re-creates it
        let report = try await store.sync()  // the create meets our late copy (412): the new one is sent over it
        #expect(report.conflictsDetected == 0 && report.conflicts == 0 && report.pending == 0)
        #expect(report.lateDeliveriesUndone == 1)
        #expect(try store.collection("todos").find("k") == ["id": "k", "a": 5])
        #expect(try await server.serverGet("todos", "k") == ["id": "k", "a": 5])
    }

    @Test(arguments: BackendKind.available)
    func aWindowOfZeroTurnsTheRecognitionOff(_ kind: BackendKind) async throws {
        let (server, store, dir) = try await Self.deletedAfterALostCreate(kind, window: .zero)
        defer { try? store.close(); _ = dir }
        try await server.serverPut("todos", "k", ["a": 1])
        let report = try await store.sync()
        #expect(report.lateDeliveriesUndone == 0)
        #expect(try store.collection("todos").find("k") == ["id": "k", "a": 1])  // the hazard, as before the fix
    }

    @Test(.timeLimit(.minutes(5)))
    func theUndoIsAnEvent() async throws {
        let (server, store, dir) = try await Self.deletedAfterALostCreate(.memory)
        defer { try? store.close(); _ = dir }
        let events = store.syncEvents()
        try await server.serverPut("todos", "k", ["a": 1])
        _ = try await store.sync()
        var undone: [LateDelivery] = []
        for await event in events {
            if case .lateDeliveryUndone(let write) = event { undone.append(write) }
            if case .finished = event { break }
        }
        #expect(undone.map(\.id) == ["k"] && undone.first?.record == ["id": "k", "a": 1])
    }
}
