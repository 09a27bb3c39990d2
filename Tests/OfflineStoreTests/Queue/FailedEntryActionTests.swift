import Foundation
import GRDB
import OfflineStoreTesting
import Testing
@testable import OfflineStore

/// The app's actions on entries the server rejected: retry, rollback, discard (SPEC §8).
@Suite("Failed entry actions")
struct FailedEntryActionTests {
    /// The collections of every test's store (deferred, on an in-memory server).
    static let collections = [CollectionDescriptor("todos"), CollectionDescriptor("notes")]

    /// Creates `todos/a` on the server (synced locally), then makes `edit` and has the server refuse it with 422.
    static func rejectedEdit(_ store: ObjectStore, _ backend: InMemoryBackend,
                             _ edit: (ObjectCollection) async throws -> Void) async throws {
        let todos = store.collection("todos")
        try await todos.create(["id": "a", "title": "one"])
        try await store.flush()
        try await edit(todos)
        backend.inject(.rejectOperation(id: "a", status: 422, body: #"{"errors":{"title":"too short"}}"#))
        let report = try await store.flush()
        #expect(report.failed == 1)
    }

    @Test func failedEntriesListRejectionsWithStatusAndBody() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), collections: Self.collections) { store, backend in
            try await Self.rejectedEdit(store, backend) { try await $0.patch("a", ["title": "x"]) }
            try await store.collection("notes").create(["id": "n", "text": "pending"])

            let failed = try store.failedEntries()
            #expect(failed.count == 1)
            #expect(failed.first?.objectID == "a")
            #expect(failed.first?.kind == .update)
            #expect(failed.first?.status == 422)
            #expect(failed.first?.responseBody == #"{"errors":{"title":"too short"}}"#)
            #expect(try store.failedEntries(collection: "todos").count == 1)
            #expect(try store.failedEntries(collection: "notes").isEmpty)
            #expect(try store.collection("todos").object("a")?.state == .failed)
        }
    }

    @Test func retrySendsTheCurrentLocalCopy() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), collections: Self.collections) { store, backend in
            let todos = store.collection("todos")
            try await todos.create(["id": "a", "title": "x"])
            backend.inject(.rejectOperation(id: "a", status: 422, body: "title too short"))
            try await store.flush()
            // The fix is queued behind the failed entry.
            try await todos.patch("a", ["title": "long enough"])
            #expect(try store.queueCount() == 2)

            try store.retry("todos", id: "a")
            let entry = try #require(try store.queueEntries(collection: "todos", id: "a").first)
            #expect(entry.state == .pending)
            #expect(entry.attempts == 1)
            #expect(try todos.object("a")?.state == .created)

            backend.reset()
            let report = try await store.flush()
            #expect(report.failed == 0 && report.pending == 0)
            #expect(backend.serverRecord(collection: "todos", id: "a")?.record == ["id": "a", "title": "long enough"])
            // The retried create carried the fixed copy, not the payload the server refused.
            let firstPush = backend.requestLog.compactMap { request -> PushOperation? in
                if case .push(_, let operations) = request { return operations.first } else { return nil }
            }.first
            #expect(firstPush?.kind == .create)
            #expect(firstPush?.data == ["id": "a", "title": "long enough"])
            #expect(try todos.object("a")?.state == .synced)
        }
    }

    @Test func retryClearsThePayloadItWasSentWith() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), collections: Self.collections) { store, backend in
            try await Self.rejectedEdit(store, backend) { try await $0.patch("a", ["title": "x"]) }
            try store.retry("todos", id: "a")
            let sentData = try store.local.read("reading") { db in
                try String.fetchOne(db, sql: "SELECT sent_data FROM queue WHERE object_id = 'a'")
            }
            #expect(sentData == nil)
        }
    }

    @Test func rollbackRestoresThePersistentCopy() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), collections: Self.collections) { store, backend in
            try await Self.rejectedEdit(store, backend) { try await $0.patch("a", ["title": "x"]) }
            let todos = store.collection("todos")
            try await todos.patch("a", ["title": "y"])   // waits behind the failed entry

            try store.rollback("todos", id: "a")
            let object = try #require(try todos.object("a"))
            #expect(object.state == .synced)
            #expect(object.value == ["id": "a", "title": "one"])
            #expect(object.local == nil)
            #expect(try store.queueCount() == 0)
        }
    }

    @Test func rollbackOfARejectedDeleteBringsTheObjectBack() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), collections: Self.collections) { store, backend in
            try await Self.rejectedEdit(store, backend) { try await $0.destroy("a") }
            try store.rollback("todos", id: "a")
            #expect(try store.collection("todos").find("a") == ["id": "a", "title": "one"])
            #expect(try store.queueCount() == 0)
        }
    }

    @Test func discardRemovesARejectedCreate() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), collections: Self.collections) { store, backend in
            let todos = store.collection("todos")
            try await todos.create(["id": "a", "title": "x"])
            backend.inject(.rejectOperation(id: "a", status: 400))
            try await store.flush()

            try store.discard("todos", id: "a")
            #expect(try todos.object("a") == nil)
            #expect(try store.queueCount() == 0)
        }
    }

    @Test func eachActionRefusesTheWrongKindOfError() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), collections: Self.collections) { store, backend in
            // A rejected update: the server has the object, so discard is refused.
            try await Self.rejectedEdit(store, backend) { try await $0.patch("a", ["title": "x"]) }
            let discard = #expect(throws: OfflineStoreError.self) { try store.discard("todos", id: "a") }
            #expect(discard?.code == .invalidOperation)
            #expect(discard?.message.contains("roll") == true)

            // A rejected create: nothing to roll back to.
            try await store.collection("todos").create(["id": "b", "title": "x"])
            backend.inject(.rejectOperation(id: "b", status: 422))
            try await store.flush()
            let rollback = #expect(throws: OfflineStoreError.self) { try store.rollback("todos", id: "b") }
            #expect(rollback?.code == .invalidOperation)
            #expect(rollback?.message.contains("discard") == true)
            #expect(try store.failedEntries().count == 2)
        }
    }

    @Test func actionsNeedAnObjectWithAFailedEntry() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), collections: Self.collections) { store, _ in
            try await store.collection("todos").create(["id": "p", "title": "pending"])
            for action in [store.retry, store.rollback, store.discard] {
                let missing = #expect(throws: OfflineStoreError.self) { try action("todos", "nope") }
                #expect(missing?.code == .notFound)
                let notFailed = #expect(throws: OfflineStoreError.self) { try action("todos", "p") }
                #expect(notFailed?.code == .invalidOperation)
                let unknown = #expect(throws: OfflineStoreError.self) { try action("ghosts", "p") }
                #expect(unknown?.code == .unknownCollection)
            }
            #expect(try store.queueCount() == 1)
        }
    }

    @Test func actionsWaitForAnEntryInFlight() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), collections: Self.collections) { store, backend in
            try await Self.rejectedEdit(store, backend) { try await $0.patch("a", ["title": "x"]) }
            try await store.collection("todos").patch("a", ["title": "y"])
            let later = try #require(try store.queueEntries(collection: "todos", id: "a").last)
            try store.setQueueState(.inFlight, seq: later.seq)
            let error = #expect(throws: OfflineStoreError.self) { try store.rollback("todos", id: "a") }
            #expect(error?.code == .invalidOperation)
            #expect(try store.queueCount() == 2)
        }
    }
}
