import Foundation
import OfflineStore
import Testing

/// The sync scenarios of SPEC §5–§7, run against the in-memory backend and the real Kinto.
/// Every step asserts both the server's and the local state.
@Suite struct SyncScenarioTests {
    /// Every object the app sees, by id.
    static func local(_ store: ObjectStore, _ collection: String = "todos") throws -> [String: JSONValue] {
        var all: [String: JSONValue] = [:]
        for object in try store.collection(collection).findAll() { all[object["id"]!.stringValue!] = object }
        return all
    }

    @Test(arguments: BackendKind.available)
    func offlineEditsThenFlushMakeTheServerEqualLocal(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind)
        let todos = store.collection("todos")
        try await todos.create(["id": "a", "title": "A"])
        try await todos.create(["id": "b", "title": "B", "n": 1])
        try await todos.create(["id": "c", "title": "C"])
        try await todos.patch("b", ["n": 2.5])
        try await todos.destroy("c")
        #expect(try store.queueCount() == 2)
        #expect(try await server.serverAll("todos").isEmpty)

        let report = try await store.flush()
        #expect(report.pushed == 2)
        #expect(report.pending == 0 && report.failed == 0 && report.conflicts == 0)
        let onServer = try await server.serverAll("todos")
        #expect(onServer == (try Self.local(store)))
        #expect(onServer["b"]?["n"] == .double(2.5))
        #expect(try todos.object("a")?.state == .synced)
        #expect(try todos.object("a")?.serverVersion != nil)
        #expect(try store.isChanged() == false)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func manyEditsOnFewObjectsSendOneWriteEach(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind)
        let todos = store.collection("todos")
        for i in 0..<3 { try await todos.create(["id": .string("o\(i)"), "v": 0]) }
        for round in 1...10 { for i in 0..<3 { try await todos.patch("o\(i)", ["v": .int(Int64(round))]) } }
        #expect(try store.queueCount() == 3)
        let before = server.writeCount
        try await store.flush()
        #expect(server.writeCount - before == 3)
        #expect(try await server.serverGet("todos", "o1")?["v"] == 10)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func refreshPicksUpAnotherClientsCreatesUpdatesAndDeletes(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind)
        try await server.serverPut("todos", "x", ["title": "X"])
        try await server.serverPut("todos", "y", ["title": "Y"])
        var report = try await store.refresh()
        #expect(report.pulled == 2)
        #expect(try Self.local(store) == (try await server.serverAll("todos")))

        try await server.serverPut("todos", "x", ["title": "X2"])
        try await server.serverDelete("todos", "y")
        try await server.serverPut("todos", "z", ["title": "Z"])
        report = try await store.refresh()
        #expect(report.pulled == 3)
        #expect(try Self.local(store) == (try await server.serverAll("todos")))
        #expect(try store.collection("todos").object("y") == nil)
        #expect(try store.collection("todos").persistent("x")?["title"] == "X2")

        report = try await store.refresh()
        #expect(report.pulled == 0)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func refreshAcrossSeveralPages(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind, pageSize: 3)
        for i in 0..<10 { try await server.serverPut("todos", "p\(i)", ["i": .int(Int64(i))]) }
        let report = try await store.refresh()
        #expect(report.pulled == 10)
        #expect(try Self.local(store) == (try await server.serverAll("todos")))
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func aRecordChangedBetweenTwoPagesIsNotSkipped(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind, pageSize: 2)
        for i in 0..<5 { try await server.serverPut("todos", "r\(i)", ["v": 0]) }
        // Between page 1 and page 2, another client edits a record page 1 already returned.
        server.beforeSecondPage { try? await server.serverPut("todos", "r0", ["v": 1]) }
        try await store.refresh()
        try await store.refresh()
        #expect(try store.collection("todos").find("r0")?["v"] == 1)
        #expect(try Self.local(store) == (try await server.serverAll("todos")))
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func aServerErrorKeepsTheEntryAndTheNextFlushSucceeds(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind)
        try await store.collection("todos").create(["id": "e", "t": 1])
        server.failNextPush(status: 503)
        let interrupted = await #expect(throws: OfflineStoreError.self) { try await store.flush() }
        #expect(interrupted?.code == .server)
        #expect(interrupted?.status == 503)
        let entry = try #require(try store.queueEntries().first)
        #expect(entry.state == .pending && entry.attempts == 1 && entry.lastError != nil)
        #expect(try await server.serverGet("todos", "e") == nil)

        let report = try await store.flush()
        #expect(report.pushed == 1 && report.pending == 0)
        #expect(try await server.serverGet("todos", "e") == ["id": "e", "t": 1])
        #expect(try store.collection("todos").object("e")?.state == .synced)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func aLostResponseIsNeitherDuplicatedNorAFalseConflict(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind)
        let todos = store.collection("todos")
        try await todos.create(["id": "l", "t": 1])
        server.loseNextPushResponse()
        let interrupted = await #expect(throws: OfflineStoreError.self) { try await store.flush() }
        #expect(interrupted?.code == .timeout)
        #expect(try await server.serverGet("todos", "l") == ["id": "l", "t": 1])  // applied
        #expect(try store.queueCount() == 1)

        var report = try await store.flush()
        #expect(report.pushed == 1 && report.conflictsDetected == 0)
        #expect(try todos.object("l")?.state == .synced)
        #expect(try await server.serverAll("todos").count == 1)

        // The same for an update.
        try await todos.patch("l", ["t": 2])
        server.loseNextPushResponse()
        await expectStoreError(.timeout) { try await store.flush() }
        report = try await store.flush()
        #expect(report.pushed == 1 && report.conflictsDetected == 0 && report.conflicts == 0)
        #expect(try await server.serverGet("todos", "l")?["t"] == 2)
        #expect(try todos.object("l")?.state == .synced)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func anEditMadeWhileItsEntryIsInFlightSurvivesTheFlush(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind)
        let todos = store.collection("todos")
        try await todos.create(["id": "f", "v": 1])
        let editedInFlight = OnceFlag()
        server.beforeNextPush {
            do { _ = try await todos.patch("f", ["v": 2]) } catch { Issue.record("the edit made during the push failed: \(error)") }
            _ = editedInFlight.take()
        }
        let before = server.writeCount
        let report = try await store.flush()
        #expect(editedInFlight.take() == false)  // the hook ran while the create was in flight
        // The create's answer did not overwrite the newer edit: it got its own entry,
        // rebased on the version the create returned, and was sent next without conflict.
        #expect(report.pushed == 2 && report.conflictsDetected == 0 && report.pending == 0)
        #expect(server.writeCount - before == 2)
        #expect(try await server.serverGet("todos", "f")?["v"] == 2)
        let object = try #require(try todos.object("f"))
        #expect(object.value?["v"] == 2 && object.persistent?["v"] == 2 && object.state == .synced)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func anInFlightAnswerNeverOverwritesANewerEditThatIsStillQueued(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind)
        let todos = store.collection("todos")
        try await todos.create(["id": "g", "v": 1])
        // The newer edit is made while the create is in flight, and the flush is cut
        // off (offline) before it can send the newer entry.
        server.beforeNextPush {
            do { _ = try await todos.patch("g", ["v": 2]) } catch { Issue.record("the edit made during the push failed: \(error)") }
            store.setOffline(true)
        }
        await expectStoreError(.offline) { try await store.flush() }
        store.setOffline(false)
        #expect(try await server.serverGet("todos", "g")?["v"] == 1)
        let object = try #require(try todos.object("g"))
        #expect(object.value?["v"] == 2)
        #expect(object.persistent?["v"] == 1)
        #expect(object.state == .updated)
        let entries = try store.queueEntries()
        #expect(entries.count == 1 && entries.first?.kind == .update && entries.first?.baseVersion == object.serverVersion)
        try await store.flush()
        #expect(try await server.serverGet("todos", "g")?["v"] == 2)
        #expect(try todos.object("g")?.state == .synced)
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func editsAwaitingTheServerReachItBeforeTheCallReturns(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind, writeMode: .awaitingServer)
        let todos = store.collection("todos")
        try await todos.create(["id": "i", "v": 1])
        #expect(try await server.serverGet("todos", "i") == ["id": "i", "v": 1])
        #expect(try todos.object("i")?.state == .synced)
        try await todos.destroy("i")
        #expect(try await server.serverGet("todos", "i") == nil)
        #expect(try todos.object("i") == nil)
        #expect(try store.queueCount() == 0)
        _ = _dir
    }
}
