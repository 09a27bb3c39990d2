import Foundation
import Testing
@testable import OfflineStore

/// The REST scenarios on both real servers: Rails (`lock_version`, 409) and Django REST
/// Framework with the server recipe (If-Match, 412, an envelope paged by limit): no silent
/// last write wins, deletions seen, no duplicate from a lost answer, server ids everywhere.
@Suite("REST scenarios on Rails and DRF")
struct RESTScenarioTests {
    let deferred = ObjectStore.Configuration.with { $0.writeMode = .deferred }

    func store<T>(_ subject: RESTSubject, backend: RESTBackend, configuration: ObjectStore.Configuration? = nil,
                  _ body: (ObjectStore) async throws -> T) async throws -> T {
        try await withTemporaryStore(configuration: configuration ?? deferred, backend: backend,
                                     collections: [CollectionDescriptor(subject.collection)], body)
    }

    /// Creates a record through the store and returns its server id.
    func synced(_ subject: RESTSubject, _ store: ObjectStore, _ text: String) async throws -> String {
        let made = try await store.collection(subject.collection).create(subject.record(text))
        try await store.flush()
        return try store.serverID(for: try #require(made["id"]?.stringValue), in: subject.collection)
    }

    @Test(.liveServer, arguments: RESTServerKind.allCases)
    func aStaleEditIsAConflictWithBothCopiesNeverALastWriteWins(_ kind: RESTServerKind) async throws {
        let subject = kind.subject()
        try await store(subject, backend: try subject.backend()) { store in
            let id = try await synced(subject, store, "old")
            #expect(try await subject.otherUpdate(id, "theirs") == 200)
            try await store.collection(subject.collection).patch(id, [subject.field: "mine"])

            let report = try await store.flush()

            #expect(report.conflictsDetected == 1 && report.pushed == 0)
            let conflict = try #require(try store.conflicts(in: subject.collection).first { $0.id == id })
            #expect(conflict.local?[subject.field] == "mine" && conflict.server?[subject.field] == "theirs")
            #expect(conflict.base?[subject.field] == "old")
            #expect(try await subject.serverRecord(id)?[subject.field] == "theirs", "the server kept the other client's write")
            try store.resolve(subject.collection, id: id, with: .keepLocal)
            #expect(try await store.flush().pushed == 1)
            #expect(try await subject.serverRecord(id)?[subject.field] == "mine")
        }
    }

    @Test(.liveServer, arguments: RESTServerKind.allCases)
    func aLocalDeleteDoesNotBeatARemoteEdit(_ kind: RESTServerKind) async throws {
        let subject = kind.subject()
        try await store(subject, backend: try subject.backend()) { store in
            let id = try await synced(subject, store, "kept")
            #expect(try await subject.otherUpdate(id, "edited elsewhere") == 200)
            try await store.collection(subject.collection).destroy(id)

            let report = try await store.flush()

            #expect(report.conflictsDetected == 1)
            #expect(try await subject.serverRecord(id)?[subject.field] == "edited elsewhere", "the record is still there")
            let conflict = try #require(try store.conflicts(in: subject.collection).first { $0.id == id })
            #expect(conflict.local == nil && conflict.server?[subject.field] == "edited elsewhere")
        }
    }

    @Test(.liveServer, arguments: RESTServerKind.allCases)
    func aDeletionOnTheServerIsPulledAndAnEditOfItConflicts(_ kind: RESTServerKind) async throws {
        let subject = kind.subject()
        try await store(subject, backend: try subject.backend()) { store in
            let gone = try await synced(subject, store, "gone")
            let edited = try await synced(subject, store, "edited")
            try await store.refresh()  // the cursor: deletions show in the feed since it
            #expect((200..<300).contains(try await subject.otherDelete(gone)))
            #expect((200..<300).contains(try await subject.otherDelete(edited)))
            try await store.collection(subject.collection).patch(edited, [subject.field: "mine"])

            try await store.refresh()

            #expect(try store.collection(subject.collection).find(gone) == nil)
            #expect(try store.collection(subject.collection).object(edited)?.state == .conflicted)
        }
    }

    @Test(.liveServer, arguments: RESTServerKind.allCases)
    func aLostCreateAnswerIsReplayedByTheServerWithoutADuplicate(_ kind: RESTServerKind) async throws {
        let subject = kind.subject()
        let wire = subject.wire()
        try await store(subject, backend: try subject.backend(transport: wire)) { store in
            let text = subject.unique("lost")
            let made = try await store.collection(subject.collection).create(subject.record(text))
            let temporary = try #require(made["id"]?.stringValue)
            wire.inject(.lostResponse)

            await expectStoreError(.timeout) { try await store.flush() }
            #expect(try await store.flush().pushed == 1)

            #expect(wire.writeCount == 2, "resent with the same key, answered with the first record")
            #expect(try await subject.count(text) == 1)
            #expect(try store.serverID(for: temporary, in: subject.collection) != temporary)
        }
    }

    @Test(.liveServer, arguments: RESTServerKind.allCases)
    func withoutReplayTheStoreLooksForTheRecordBeforeResendingACreate(_ kind: RESTServerKind) async throws {
        let subject = kind.subject()
        let wire = subject.wire()
        // The server is told nothing of the key: only the refresh before the resend prevents a duplicate.
        let backend = try subject.backend(transport: wire, idempotencyHeader: nil)
        try await store(subject, backend: backend) { store in
            let text = subject.unique("looked-for")
            let made = try await store.collection(subject.collection).create(subject.record(text))
            let temporary = try #require(made["id"]?.stringValue)
            wire.inject(.lostResponse)
            await expectStoreError(.timeout) { try await store.flush() }
            try await store.collection(subject.collection).patch(temporary, ["note": "later"])

            let report = try await store.flush()

            #expect(wire.writeCount == 2, "the create was not sent again; the later edit was")
            #expect(try await subject.count(text) == 1)
            let id = try store.serverID(for: temporary, in: subject.collection)
            #expect(id != temporary && report.pending == 0)
            #expect(try store.collection(subject.collection).object(id)?.state == .synced)
        }
    }

    @Test(.liveServer, arguments: RESTServerKind.allCases)
    func aCreateAwaitingTheServerReturnsTheServersID(_ kind: RESTServerKind) async throws {
        let subject = kind.subject()
        let awaiting = ObjectStore.Configuration.with { $0.writeMode = .awaitingServer }
        try await store(subject, backend: try subject.backend(), configuration: awaiting) { store in
            let made = try await store.collection(subject.collection).create(subject.record("now"))
            let id = try #require(made["id"]?.stringValue)
            #expect(Int(id) != nil, "the server's id, not a temporary one: \(made)")
            #expect(try await subject.serverRecord(id)?[subject.field] == "now")
        }
    }

    @Test(.liveServer, arguments: RESTServerKind.allCases)
    func aRefusedRecordIsAFailedEntryWithTheServersMessages(_ kind: RESTServerKind) async throws {
        let subject = kind.subject()
        try await store(subject, backend: try subject.backend()) { store in
            let made = try await store.collection(subject.collection).create(subject.record(""))
            let report = try await store.flush()
            #expect(report.failed == 1)
            let entry = try store.onlyEntry(subject.collection, try #require(made["id"]?.stringValue))
            #expect(entry.state == .failed && entry.status == subject.blankRejection.status)
            #expect(entry.validationMessages[subject.field] == [subject.blankRejection.message])
        }
    }
}
