import Foundation
import OfflineStore
import OfflineStoreTesting
import Testing

/// Push semantics, ids, batch limit and the "another client" helpers of `InMemoryBackend`.
@Suite struct InMemoryBackendTests {
    let v0 = PushFixture.firstVersion

    @Test func createAppliesWithIDAndWithoutLastModified() async throws {
        let backend = PushFixture.backend()
        let outcomes = try await backend.push(
            [PushFixture.create("a", ["title": "one", "last_modified": 5])], collection: "todos")
        #expect(outcomes == [.applied(record: ["id": "a", "title": "one"], version: String(v0))])
        let stored = try #require(backend.serverRecord(collection: "todos", id: "a"))
        #expect(stored.record == ["id": "a", "title": "one"])
        #expect(stored.version == String(v0))
    }

    @Test func createOfALiveRecordConflictsWithTheServerCopy() async throws {
        let backend = PushFixture.backend()
        let version = backend.put(collection: "todos", id: "a", record: ["title": "theirs"])
        let outcomes = try await backend.push([PushFixture.create("a", ["title": "mine"])], collection: "todos")
        #expect(outcomes == [.conflict(server: ["id": "a", "title": "theirs"], version: version)])
        #expect(backend.serverRecord(collection: "todos", id: "a")?.record["title"] == "theirs")
    }

    @Test func createOverATombstoneSucceeds() async throws {
        let backend = PushFixture.backend()
        backend.put(collection: "todos", id: "a", record: ["title": "old"])
        backend.delete(collection: "todos", id: "a")
        let outcomes = try await backend.push([PushFixture.create("a", ["title": "again"])], collection: "todos")
        #expect(outcomes == [.applied(record: ["id": "a", "title": "again"], version: String(v0 + 2))])
        #expect(!backend.isDeleted(collection: "todos", id: "a"))
    }

    @Test func versionsStrictlyIncreaseUnderAFixedClockAndFollowTheWallClock() async throws {
        let date = ManualDate()
        let backend = PushFixture.backend(date: date)
        let first = backend.put(collection: "todos", id: "a", record: [:])
        let second = backend.put(collection: "todos", id: "b", record: [:])
        date.advance(by: .seconds(10))
        let third = backend.put(collection: "todos", id: "c", record: [:])
        #expect([first, second, third] == [String(v0), String(v0 + 1), String(v0 + 10_000)])
        #expect(backend.collectionTimestamp(collection: "todos") == third)
        #expect(backend.collectionTimestamp(collection: "other") == "0")
    }

    @Test func updateWithTheCurrentVersionReplacesTheData() async throws {
        let backend = PushFixture.backend()
        let version = backend.put(collection: "todos", id: "a", record: ["title": "one", "done": false])
        let outcomes = try await backend.push(
            [PushFixture.update("a", ["title": "two"], base: version)], collection: "todos")
        #expect(outcomes == [.applied(record: ["id": "a", "title": "two"], version: String(v0 + 1))])
    }

    @Test func updateWithAStaleVersionConflictsWithTheServerCopy() async throws {
        let backend = PushFixture.backend()
        let base = backend.put(collection: "todos", id: "a", record: ["title": "one"])
        let current = backend.put(collection: "todos", id: "a", record: ["title": "theirs"])
        let outcomes = try await backend.push(
            [PushFixture.update("a", ["title": "mine"], base: base)], collection: "todos")
        #expect(outcomes == [.conflict(server: ["id": "a", "title": "theirs"], version: current)])
    }

    @Test func updateOfAMissingOrDeletedRecordConflictsWithNothing() async throws {
        let backend = PushFixture.backend()
        let version = backend.put(collection: "todos", id: "gone", record: [:])
        backend.delete(collection: "todos", id: "gone")
        let outcomes = try await backend.push([
            PushFixture.update("missing", ["t": 1], base: "123"),
            PushFixture.update("gone", ["t": 1], base: version),
        ], collection: "todos")
        #expect(outcomes == [.conflict(server: nil, version: nil), .conflict(server: nil, version: nil)])
        #expect(backend.allRecords(collection: "todos").isEmpty)
    }

    @Test func deleteWithTheCurrentVersionLeavesATombstone() async throws {
        let backend = PushFixture.backend()
        let version = backend.put(collection: "todos", id: "a", record: ["title": "one"])
        let outcomes = try await backend.push([PushFixture.delete("a", base: version)], collection: "todos")
        #expect(outcomes == [.applied(record: nil, version: String(v0 + 1))])
        #expect(backend.isDeleted(collection: "todos", id: "a"))
        #expect(backend.serverRecord(collection: "todos", id: "a") == nil)
        #expect(backend.allRecords(collection: "todos").isEmpty)
    }

    @Test func deleteOfAMissingRecordIsAppliedWithoutVersion() async throws {
        let backend = PushFixture.backend()
        let outcomes = try await backend.push([PushFixture.delete("nope", base: "1")], collection: "todos")
        #expect(outcomes == [.applied(record: nil, version: nil)])
        #expect(!backend.isDeleted(collection: "todos", id: "nope"))
    }

    @Test func deleteWithAStaleVersionConflicts() async throws {
        let backend = PushFixture.backend()
        let base = backend.put(collection: "todos", id: "a", record: ["n": 1])
        let current = backend.put(collection: "todos", id: "a", record: ["n": 2])
        let outcomes = try await backend.push([PushFixture.delete("a", base: base)], collection: "todos")
        #expect(outcomes == [.conflict(server: ["id": "a", "n": 2], version: current)])
        #expect(!backend.isDeleted(collection: "todos", id: "a"))
    }

    @Test func dataKintoRefusesIsRejectedWith400() async throws {
        let backend = PushFixture.backend()
        let outcomes = try await backend.push([
            PushFixture.create("bad.id", ["t": 1]),
            PushFixture.create("a", ["id": "b"]),
            PushFixture.create("c", [1, 2]),
            PushFixture.update("d", ["t": 1], base: "not-a-number"),
        ], collection: "todos")
        for outcome in outcomes {
            guard case .rejected(let status, let body) = outcome else {
                Issue.record("expected a rejection, got \(outcome)")
                continue
            }
            #expect(status == 400)
            #expect(try JSONValue(parsing: body ?? "")["errno"] == 107)
        }
        #expect(backend.allRecords(collection: "todos").isEmpty)
    }

    @Test func aBatchOverTheLimitIsRefusedWhole() async throws {
        let backend = PushFixture.backend(maxBatchSize: 3)
        #expect(try await backend.capabilities().maxBatchSize == 3)
        let operations = (1...4).map { PushFixture.create("r\($0)", [:]) }
        let error = try await #require(throws: OfflineStoreError.self) {
            try await backend.push(operations, collection: "todos")
        }
        #expect(error.code == .configuration)
        #expect(error.status == 400)
        #expect(error.message.contains("batch too large"))
        #expect(backend.allRecords(collection: "todos").isEmpty)
        #expect(try await backend.push(Array(operations.prefix(3)), collection: "todos").count == 3)
    }

    @Test(arguments: ["a", "A1", "x_y-z", "0", String(repeating: "k", count: 300)])
    func validateAcceptsKintoIDs(_ id: String) throws {
        try PushFixture.backend().validate(id: id)
    }

    @Test(arguments: ["", "a.b", "_x", "-x", "a b", "é", "a/b"])
    func validateRejectsOtherIDs(_ id: String) throws {
        let error = try #require(throws: OfflineStoreError.self) { try PushFixture.backend().validate(id: id) }
        #expect(error.code == .invalidID)
        #expect(error.message.contains("^[a-zA-Z0-9][a-zA-Z0-9_-]*$"))
    }

    @Test func anotherClientsWritesAreVisible() async throws {
        let backend = PushFixture.backend()
        backend.put(collection: "todos", id: "a", record: ["id": "a", "n": 1, "last_modified": 3])
        backend.put(collection: "todos", id: "b", record: ["n": 2])
        #expect(backend.delete(collection: "todos", id: "b") == String(v0 + 2))
        #expect(backend.delete(collection: "todos", id: "b") == nil)
        #expect(backend.allRecords(collection: "todos") == ["a": ["id": "a", "n": 1]])
        #expect(backend.isDeleted(collection: "todos", id: "b"))
    }

    @Test func aWipedServerForgetsEverythingButNeverReusesAVersion() async throws {
        let backend = PushFixture.backend()
        backend.put(collection: "todos", id: "a", record: ["n": 1])
        backend.delete(collection: "todos", id: "a")
        backend.wipe()
        #expect(backend.allRecords(collection: "todos").isEmpty)
        #expect(!backend.isDeleted(collection: "todos", id: "a"))
        #expect(backend.collectionTimestamp(collection: "todos") == String(v0 + 1))
        #expect(backend.put(collection: "todos", id: "a", record: ["n": 2]) == String(v0 + 2))
        let pulled = try await backend.pull(PullRequest(collection: "todos", cursor: String(v0 + 1)))
        #expect(pulled.changes.map(\.version) == [String(v0 + 2)])
    }

    @Test func theRequestLogCountsCallsAndOperations() async throws {
        let backend = PushFixture.backend()
        try await backend.prepare(collection: "todos")
        let operations = [PushFixture.create("a", [:]), PushFixture.create("b", [:])]
        _ = try await backend.push(operations, collection: "todos")
        _ = try await backend.pull(PullRequest(collection: "todos"))
        try await backend.ping()
        #expect(backend.requestLog == [
            .prepare(collection: "todos"), .push(collection: "todos", operations: operations),
            .pull(collection: "todos", since: nil, continuing: nil), .ping,
        ])
        #expect(backend.pushCallCount == 1)
        #expect(backend.pullCallCount == 1)
        #expect(backend.writeCount == 2)
        backend.reset()
        #expect(backend.requestLog.isEmpty)
        #expect(backend.writeCount == 0)
        #expect(backend.allRecords(collection: "todos").count == 2)
    }

    @Test func onPushRunsBeforeTheOperationsAreApplied() async throws {
        let backend = PushFixture.backend()
        let seen = Locked<[String]>([])
        backend.onPush = { [weak backend] operations in  // weak: the backend holds its hook
            let present = backend?.serverRecord(collection: "todos", id: "a") != nil
            seen.withLock { $0 += operations.map { "\($0.id) present=\(present)" } }
        }
        _ = try await backend.push([PushFixture.create("a", [:])], collection: "todos")
        #expect(seen.withLock { $0 } == ["a present=false"])
        #expect(backend.serverRecord(collection: "todos", id: "a") != nil)
    }

    @Test func aStrictServerNeedsPrepare() async throws {
        let backend = InMemoryBackend(configuration: .init(requiresPreparedCollections: true))
        let outcomes = try await backend.push([PushFixture.create("a", [:])], collection: "todos")
        #expect(outcomes.map { if case .rejected(404, _) = $0 { true } else { false } } == [true])
        await expectStoreError(.server) {
            try await backend.pull(PullRequest(collection: "todos"))
        }
        try await backend.prepare(collection: "todos")
        #expect(try await backend.push([PushFixture.create("a", [:])], collection: "todos").count == 1)
        #expect(try await backend.pull(PullRequest(collection: "todos")).changes.count == 1)
    }
}
