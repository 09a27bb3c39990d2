import Foundation
import OfflineStore
import Testing

/// Edge cases of the engine found in review, against both backends.
@Suite struct EngineEdgeScenarioTests {
    @Test(arguments: BackendKind.available)
    func aResolverAnswerThatCannotBeSentPreservesTheConflictAndNeverBlocksTheQueue(_ kind: BackendKind) async throws {
        let bad: ConflictResolver = { _ in .merged(["id": "someone-else", "a": 1]) }
        let (server, store, _dir) = try await ConflictScenarioTests.conflicted(
            kind, policy: .custom(bad), local: ["id": "k", "a": 2, "b": 1], server: ["id": "k", "a": 3, "b": 1])
        try await store.collection("todos").create(["id": "other", "v": 1])
        let report = try await store.flush()
        #expect(report.conflicts == 1 && report.pushed == 1)
        #expect(try store.collection("todos").object("k")?.state == .conflicted)
        #expect(try await server.serverGet("todos", "other") == ["id": "other", "v": 1])
        #expect(try store.queueEntries().allSatisfy { $0.state == .pending })
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func theSameEditOnBothSidesIsNotCountedAsAConflict(_ kind: BackendKind) async throws {
        let same: JSONValue = ["id": "k", "a": 7, "b": 1]
        let (_, store, _dir) = try await ConflictScenarioTests.conflicted(kind, policy: .preserveConflict, local: same, server: same)
        let report = try await store.flush()
        #expect(report.conflictsDetected == 0 && report.conflicts == 0 && report.pending == 0)
        #expect(try store.collection("todos").object("k")?.state == .synced)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func anEmptyFlushSucceedsWhileTheServerIsUnreachable(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind)
        server.setUnreachable(true)
        let report = try await store.flush()
        #expect(report.pushed == 0 && report.pending == 0)
        let interrupted = await #expect(throws: OfflineStoreError.self) { try await store.sync() }
        #expect(interrupted?.code == .offline)
        _ = _dir
    }
}
