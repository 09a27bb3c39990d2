import Foundation
import OfflineStore
import Testing

/// Update policies when edits await the server (`.awaitingServer`, the waiting form of immediate mode), against both backends.
@Suite struct PolicyScenarioTests {
    @Test(arguments: BackendKind.available)
    func queueIfOfflineKeepsTheEditQueuedUntilTheServerIsBack(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind, writeMode: .awaitingServer)
        let todos = store.collection("todos")
        server.setUnreachable(true)
        try await todos.create(["id": "q", "v": 1])           // succeeds: durable and queued
        #expect(try todos.object("q")?.state == .created)
        #expect(try store.queueCount() == 1)
        server.setUnreachable(false)
        #expect(try await server.serverGet("todos", "q") == nil)
        try await store.flush()
        #expect(try await server.serverGet("todos", "q") == ["id": "q", "v": 1])
        #expect(try todos.object("q")?.state == .synced)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func updateIfOnlineFailsOfflineAndChangesNothing(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind, writeMode: .awaitingServer, updatePolicy: .updateIfOnline)
        let todos = store.collection("todos")
        try await todos.create(["id": "u", "v": 1])
        #expect(try await server.serverGet("todos", "u") == ["id": "u", "v": 1])

        server.setUnreachable(true)
        let error = await #expect(throws: OfflineStoreError.self) { try await todos.patch("u", ["v": 2]) }
        #expect(error?.code == .offline)
        let created = await #expect(throws: OfflineStoreError.self) { try await todos.create(["id": "n"]) }
        #expect(created?.code == .offline)
        server.setUnreachable(false)

        let object = try #require(try todos.object("u"))
        #expect(object.value == ["id": "u", "v": 1] && object.state == .synced)
        #expect(try todos.object("n") == nil)
        #expect(try store.queueCount() == 0)
        #expect(try await server.serverGet("todos", "u") == ["id": "u", "v": 1])
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func aRejectedImmediateEditThrowsAndStaysAsAFailedEntryUnderQueueIfOffline(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind, writeMode: .awaitingServer)
        server.failNextPush(status: 422)
        let error = await #expect(throws: OfflineStoreError.self) {
            try await store.collection("todos").create(["id": "r", "v": 1])
        }
        #expect(error?.code == .failedEntry && error?.status == 422)
        let entry = try #require(try store.queueEntries().first)
        #expect(entry.state == .failed && entry.status == 422 && entry.responseBody != nil)
        #expect(try store.collection("todos").object("r")?.state == .failed)
        #expect(try await server.serverGet("todos", "r") == nil)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func aRejectedImmediateEditIsUndoneUnderUpdateIfOnline(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind, writeMode: .awaitingServer, updatePolicy: .updateIfOnline)
        let todos = store.collection("todos")
        try await todos.create(["id": "w", "v": 1])
        server.failNextPush(status: 422)
        let error = await #expect(throws: OfflineStoreError.self) { try await todos.patch("w", ["v": 2]) }
        #expect(error?.code == .failedEntry)
        #expect(try todos.find("w") == ["id": "w", "v": 1])
        #expect(try todos.object("w")?.state == .synced)
        #expect(try store.queueCount() == 0)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func deferredModeNeverTouchesTheNetworkOnEdit(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind, writeMode: .deferred)
        let before = server.writeCount
        try await store.collection("todos").create(["id": "d"])
        #expect(server.writeCount == before)
        #expect(try store.queueCount() == 1)
        _ = _dir
    }
}
