import Foundation
import OfflineStore
import Testing

/// False conflicts found by `SyncKillTests`: a refresh that brings a tombstone marked as
/// conflicted a local delete (both sides agree; fixed) and a local create made after our
/// own delete whose answer was lost (still open: recorded as a known issue).
@Suite struct TombstoneRefreshTests {
    @Test(arguments: BackendKind.allCases)
    func aTombstoneMeetingALocalDeleteIsNoConflict(_ kind: BackendKind) async throws {
        let server = try await Harness.make(kind)
        let (store, dir) = try server.makeStore()
        defer { try? store.close(); _ = dir }
        _ = try await store.collection("todos").create(["id": "k", "a": 1])
        _ = try await store.sync()
        try await server.serverDelete("todos", "k")
        try await store.collection("todos").destroy("k")
        let report = try await store.sync()
        #expect(report.conflictsDetected == 0 && report.conflicts == 0 && report.pending == 0)
        #expect(try store.collection("todos").object("k") == nil)
        #expect(try await server.serverGet("todos", "k") == nil)
    }

    @Test(arguments: BackendKind.allCases)
    func aCreateAfterOurOwnDeleteWhoseAnswerWasLostIsNoConflict(_ kind: BackendKind) async throws {
        let server = try await Harness.make(kind)
        let (store, dir) = try server.makeStore()
        defer { try? store.close(); _ = dir }
        _ = try await store.collection("todos").create(["id": "k", "a": 1])
        _ = try await store.sync()
        try await store.collection("todos").destroy("k")
        server.loseNextPushResponse()
        await #expect(throws: SyncInterrupted.self) { _ = try await store.flush() }  // applied, answer lost
        _ = try await store.collection("todos").create(["id": "k", "a": 2])
        _ = try await store.refresh()  // brings our own tombstone
        let report = try await store.sync()
        // Known issue: the incoming tombstone is our own delete, but the re-created object's
        // base is still the deleted copy, so the refresh reports a false conflict.
        let conflicts = try store.conflicts()
        withKnownIssue("a re-create after a delete whose answer was lost meets its own tombstone as a conflict") {
            #expect(conflicts.isEmpty)
            #expect(report.pending == 0 && report.failed == 0)
        }
        // The edit is never lost: it is the conflict's local copy, and keepLocal sends it.
        if let conflict = try store.conflicts().first {
            #expect(conflict.local?["a"] == 2)
            try store.resolve("todos", id: "k", with: .keepLocal)
            _ = try await store.sync()
        }
        #expect(try store.collection("todos").object("k")?.state == .synced)
        #expect(try await server.serverGet("todos", "k") == ["id": "k", "a": 2])
    }
}
