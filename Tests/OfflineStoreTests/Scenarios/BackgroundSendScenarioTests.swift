import Foundation
import OfflineStore
import Testing

/// Immediate mode on both backends: the edit returns once durable and the background sender
/// brings it to the server; the app learns of it from the sync events.
@Suite(.timeLimit(.minutes(5))) struct BackgroundSendScenarioTests {
    @Test(arguments: BackendKind.available)
    func immediateWritesReachTheServerInTheBackground(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind, writeMode: .immediate)
        let todos = store.collection("todos")
        let events = store.syncEvents()
        try await todos.create(["id": "i", "v": 1])
        #expect(await events.nextFlushReport()?.pushed == 1)
        #expect(try await server.serverGet("todos", "i") == ["id": "i", "v": 1])
        #expect(try todos.object("i")?.state == .synced)
        try await todos.destroy("i")
        #expect(await events.nextFlushReport()?.pushed == 1)
        #expect(try await server.serverGet("todos", "i") == nil)
        #expect(try todos.object("i") == nil)
        #expect(try store.queueCount() == 0)
        _ = _dir
    }
}
