import Foundation
import OfflineStore
import Testing

/// Ids are the backend's: whatever a refresh pulls, the app can edit and delete. Another
/// client (plain HTTP, as kinto-http would) makes records with 257-, 300- and
/// 2,000-character ids; this store pulls them, edits one, deletes another, flushes, and
/// the server has the results.
@Suite struct LongIDScenarioTests {
    static func id(_ length: Int, _ tag: Character) -> String {
        String(tag) + String(repeating: "x", count: length - 2) + "9"
    }

    @Test(arguments: BackendKind.available)
    func pulledRecordsWithLongIDsCanBeEditedAndDeleted(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind)
        let todos = store.collection("todos")
        let edited = Self.id(300, "a"), deleted = Self.id(257, "b"), longest = Self.id(2_000, "c")
        #expect(edited.utf8.count == 300 && deleted.utf8.count == 257)
        try await server.serverPut("todos", edited, ["title": "edit me"])
        try await server.serverPut("todos", deleted, ["title": "delete me"])
        try await server.serverPut("todos", longest, ["title": "kept"])

        #expect(try await store.refresh().pulled == 3)
        #expect(try todos.find(edited)?["title"] == "edit me")
        try await todos.patch(edited, ["title": "edited", "done": true])
        try await todos.destroy(deleted)
        try await todos.patch(longest, ["n": 1])
        #expect(try store.queueCount() == 3)

        let report = try await store.flush()
        #expect(report.pushed == 3 && report.failed == 0 && report.conflicts == 0 && report.pending == 0)
        #expect(try await server.serverGet("todos", edited) == ["id": .string(edited), "title": "edited", "done": true])
        #expect(try await server.serverGet("todos", deleted) == nil)
        #expect(try await server.serverGet("todos", longest) == ["id": .string(longest), "title": "kept", "n": 1])
        #expect(try todos.object(edited)?.state == .synced)
        #expect(try todos.find(deleted) == nil)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func theAppCreatesLongIDsAndTheStoresOwnRulesStillHold(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind)
        let todos = store.collection("todos")
        let long = Self.id(1_000, "d")
        try await todos.create(["id": .string(long), "title": "long"])
        #expect(try await store.flush().pushed == 1)
        #expect(try await server.serverGet("todos", long)?["title"] == "long")

        for bad in ["", "a\u{0}b", "tab\there", "del\u{7F}"] {
            let error = await #expect(throws: OfflineStoreError.self) { try await todos.create(["id": .string(bad)]) }
            #expect(error?.code == .invalidID)
        }
        // The backend's own pattern still applies (Kinto: ^[a-zA-Z0-9][a-zA-Z0-9_-]*$).
        let refused = await #expect(throws: OfflineStoreError.self) { try await todos.create(["id": "-dash-first"]) }
        #expect(refused?.code == .invalidID)
        #expect(try store.queueCount() == 0)
        _ = _dir
    }
}
