import Foundation
import OfflineStore
import Testing

/// False conflicts found by `SyncKillTests` and `FaultProxyTests`: a refresh that brings
/// our own write whose answer was lost (a tombstone, or the payload we sent) settles that
/// queue entry instead of conflicting with a later local edit; another client's copy
/// still conflicts.
@Suite struct TombstoneRefreshTests {
    @Test(arguments: BackendKind.available)
    func aTombstoneMeetingALocalDeleteIsNoConflict(_ kind: BackendKind) async throws {
        let (server, store, dir) = try await Harness.store(kind)
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

    @Test(arguments: BackendKind.available)
    func aCreateAfterOurOwnDeleteWhoseAnswerWasLostIsNoConflict(_ kind: BackendKind) async throws {
        let (server, store, dir) = try await Harness.store(kind)
        defer { try? store.close(); _ = dir }
        _ = try await store.collection("todos").create(["id": "k", "a": 1])
        _ = try await store.sync()
        try await store.collection("todos").destroy("k")
        server.loseNextPushResponse()
        await expectStoreError(.timeout) { _ = try await store.flush() }  // applied, answer lost
        _ = try await store.collection("todos").create(["id": "k", "a": 2])
        let refreshed = try await store.refresh()  // brings our own tombstone: it settles the sent delete
        #expect(refreshed.conflictsDetected == 0)
        #expect(try store.collection("todos").object("k")?.state == .created)
        let report = try await store.sync()
        #expect(try store.conflicts().isEmpty)
        #expect(report.conflictsDetected == 0 && report.pending == 0 && report.failed == 0)
        #expect(try store.collection("todos").object("k")?.state == .synced)
        #expect(try await server.serverGet("todos", "k") == ["id": "k", "a": 2])
    }

    @Test(arguments: BackendKind.available)
    func anEditAfterOurOwnCreateWhoseAnswerWasLostIsNoConflict(_ kind: BackendKind) async throws {
        let (server, store, dir) = try await Harness.store(kind)
        defer { try? store.close(); _ = dir }
        _ = try await store.collection("todos").create(["id": "k", "a": 1])
        server.loseNextPushResponse()
        await expectStoreError(.timeout) { _ = try await store.flush() }  // applied, answer lost
        _ = try await store.collection("todos").patch("k", ["a": 2])
        let refreshed = try await store.refresh()  // brings our own create: it settles the sent create
        #expect(refreshed.conflictsDetected == 0)
        #expect(try store.collection("todos").object("k")?.state == .updated)
        let report = try await store.sync()
        #expect(try store.conflicts().isEmpty)
        #expect(report.conflictsDetected == 0 && report.pending == 0 && report.failed == 0)
        #expect(try await server.serverGet("todos", "k") == ["id": "k", "a": 2])
    }

    @Test(arguments: BackendKind.available)
    func aDeleteAfterOurOwnCreateWhoseAnswerWasLostStaysDeleted(_ kind: BackendKind) async throws {
        let (server, store, dir) = try await Harness.store(kind)
        defer { try? store.close(); _ = dir }
        _ = try await store.collection("todos").create(["id": "k", "a": 1])
        server.loseNextPushResponse()
        await expectStoreError(.timeout) { _ = try await store.flush() }  // applied, answer lost
        try await store.collection("todos").destroy("k")
        let refreshed = try await store.refresh()
        #expect(refreshed.conflictsDetected == 0)
        #expect(try store.collection("todos").object("k")?.state == .deleted)  // still to send, now on the server's version
        let report = try await store.sync()
        #expect(report.conflictsDetected == 0 && report.pending == 0 && report.failed == 0)
        #expect(try store.collection("todos").object("k") == nil)
        #expect(try await server.serverGet("todos", "k") == nil)
    }

    @Test(arguments: BackendKind.available)
    func anotherClientsDifferentCopyStillConflicts(_ kind: BackendKind) async throws {
        let (server, store, dir) = try await Harness.store(kind)
        defer { try? store.close(); _ = dir }
        _ = try await store.collection("todos").create(["id": "k", "a": 1])
        _ = try await store.sync()
        try await store.collection("todos").patch("k", ["a": 2])
        server.loseNextPushResponse()
        await expectStoreError(.timeout) { _ = try await store.flush() }  // applied, answer lost
        try await server.serverPut("todos", "k", ["id": "k", "a": 3])  // another client writes after us
        try await store.collection("todos").patch("k", ["a": 4])
        let refreshed = try await store.refresh()
        #expect(refreshed.conflictsDetected == 1)
        #expect(try store.conflicts().first?.server == ["id": "k", "a": 3])
    }
}
