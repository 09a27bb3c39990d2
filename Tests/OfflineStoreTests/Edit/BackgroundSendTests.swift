import Foundation
import OfflineStoreTesting
import Testing
@testable import OfflineStore

/// Immediate mode: an edit returns once it is durable; the store's one background sender
/// sends it, and its outcome reaches the app as the object's status and sync events, never
/// as an error of the edit (Docs/Policies.md, "Write modes").
@Suite(.timeLimit(.minutes(5))) struct BackgroundSendTests {
    /// A server that accepts the connection and never answers: every edit returns at once,
    /// stays queued while the sender waits, and `close()` stops the sender.
    @Test func editsReturnOnceDurableWhileTheServerNeverAnswers() async throws {
        try await KintoServer.withSilentServer { port in
            let url = try #require(URL(string: "http://127.0.0.1:\(port)/v1"))
            // The backend would wait far past the suite's time limit: a save that waited for it fails the test.
            let backend = KintoServer.backend(server: url, timeout: .seconds(600))
            let temporary = try TemporaryStore(backend: backend, collections: [CollectionDescriptor("notes")])
            let store = temporary.store
            try store.register(Todo.self)

            try await store.collection(Todo.self).save(Todo(id: "t1", title: "typed"))
            try await store.collection("notes").save(["id": "n1", "title": "json"])
            try await store.collection("notes").create(["id": "n2", "title": "json"])
            try await store.collection(Todo.self).delete("t1")
            try await store.collection("notes").destroy("n2")

            #expect(try store.collection("notes").find("n1") == ["id": "n1", "title": "json"])
            #expect(try store.collection(Todo.self).find("t1") == nil)
            #expect(try store.queueCount() >= 1)
            #expect(store.syncEngine.sender.isSending)  // still waiting for the silent server
            try store.close()
            await store.syncEngine.sender.stopped()
            #expect(!store.syncEngine.sender.isSending)
        }
    }

    /// The sender pushes what a save queued; its run reports through `flush` events.
    @Test func theSenderSendsAndReportsThroughSyncEvents() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), configuration: ObjectStore.Configuration()) { store, server in
            try store.register(Todo.self)
            let events = store.syncEvents()
            let saved = try await store.collection(Todo.self).save(Todo(id: "t1", title: "Buy milk"))
            #expect(saved.title == "Buy milk")
            let report = await events.nextFlushReport()
            #expect(report?.pushed == 1)
            #expect(server.serverRecord(collection: "todos", id: "t1")?.record["title"] == "Buy milk")
            #expect(try store.collection(Todo.self).status(of: "t1") == .synced)
        }
    }

    /// A conflict or a rejection met by the sender is not an error of the save: the object
    /// says it, and so do the events and the next report.
    @Test func aConflictOrRejectionMetInTheBackgroundIsNoErrorOfTheSave() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), configuration: ObjectStore.Configuration()) { store, server in
            try store.register(Todo.self)
            let todos = store.collection(Todo.self)
            try store.seedSynced("todos", ["id": "t1", "title": "old"], version: "1")
            _ = server.put(collection: "todos", id: "t1", record: ["id": "t1", "title": "theirs"])
            server.inject(.rejectOperation(id: "t2", status: 422, body: "no"))
            let events = store.syncEvents()

            try await todos.save(Todo(id: "t1", title: "mine"))      // no throw: the conflict comes later
            var collected: [SyncEvent] = []
            for await event in events {
                collected.append(event)
                if case .finished = event { break }
                if case .error = event { break }
            }
            #expect(collected.contains { if case .conflict(let c) = $0 { c.id == "t1" } else { false } })
            #expect(try todos.status(of: "t1") == .conflicted)

            try await todos.save(Todo(id: "t2", title: "refused"))   // no throw: the rejection comes later
            let second = await events.nextFlushReport()
            #expect(second?.failed == 1)
            #expect(try todos.status(of: "t2") == .failed)
        }
    }

    /// The waiting form: under `.awaitingServer` a save waits and throws what the server said.
    @Test func awaitingServerWaitsAndThrowsWhatTheServerSaid() async throws {
        let configuration = ObjectStore.Configuration.with { $0.writeMode = .awaitingServer }
        try await withTemporaryStore(server: InMemoryBackend(), configuration: configuration) { store, server in
            try store.register(Todo.self)
            try store.seedSynced("todos", ["id": "t1", "title": "old"], version: "1")
            _ = server.put(collection: "todos", id: "t1", record: ["id": "t1", "title": "theirs"])
            var thrown: OfflineStoreError?
            do { try await store.collection(Todo.self).save(Todo(id: "t1", title: "mine")) } catch let error as OfflineStoreError {
                thrown = error
            }
            #expect(thrown?.code == .conflict)
            try await store.collection(Todo.self).save(Todo(id: "t2", title: "sent"))
            #expect(server.serverRecord(collection: "todos", id: "t2")?.record["title"] == "sent")  // sent before the call returned
        }
    }

    /// Under update-if-online, immediate mode still waits: the edit is undone when the server refuses it.
    @Test func updateIfOnlineStillWaitsAndUndoes() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), configuration: ObjectStore.Configuration()) { store, server in
            try store.register(CollectionDescriptor("payments", updatePolicy: .updateIfOnline))
            server.inject(.rejectOperation(id: "p1", status: 422, body: "no"))
            var thrown: OfflineStoreError?
            do { try await store.collection("payments").create(["id": "p1"]) } catch let error as OfflineStoreError { thrown = error }
            #expect(thrown?.code == .failedEntry)
            #expect(try store.collection("payments").find("p1") == nil)
        }
    }
}
