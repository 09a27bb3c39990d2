import Foundation
import OfflineStoreTesting
import Testing
@testable import OfflineStore

/// A retried edit (``ObjectStore/retry(_:id:)``) of an object the app deleted, before or after
/// the retry: for an update the delete is the edit that goes; for a create the server never
/// had, nothing goes (``SendPayloadRule``). Before, the retried entry
/// had no copy to send, and every flush stopped at it with "queue entry N has no local copy to
/// send" (found by `RESTFaultProxyTests`, whose workload deletes objects whose edits met 500s).
@Suite("Retrying a failed edit of an object deleted since", .timeLimit(.minutes(5)))
struct FailedEntryRetryAfterDeleteTests {
    static let collections = [CollectionDescriptor("todos")]

    /// `todos/a` on the server, then an update of it that the server refuses (422).
    static func failedUpdate(_ store: ObjectStore, _ backend: InMemoryBackend) async throws {
        let todos = store.collection("todos")
        try await todos.create(["id": "a", "title": "one"])
        try await store.flush()
        try await todos.patch("a", ["title": "x"])
        backend.inject(.rejectOperation(id: "a", status: 422, body: "refused"))
        #expect(try await store.flush().failed == 1)
        backend.reset()
    }

    /// The operations the server was sent since `start` requests.
    static func pushed(_ backend: InMemoryBackend, since start: Int) -> [PushOperation] {
        backend.requestLog.dropFirst(start).flatMap { request -> [PushOperation] in
            if case .push(_, let operations) = request { operations } else { [] }
        }
    }

    @Test(arguments: [true, false])
    func aRetriedUpdateGivesWayToTheDelete(retryFirst: Bool) async throws {
        try await withTemporaryStore(server: InMemoryBackend(), collections: Self.collections) { store, backend in
            let todos = store.collection("todos")
            try await Self.failedUpdate(store, backend)
            if retryFirst {
                try store.retry("todos", id: "a")
                try await todos.destroy("a")
            } else {
                try await todos.destroy("a")
                try store.retry("todos", id: "a")
            }
            #expect(try store.queueEntries(collection: "todos", id: "a").map(\.kind) == [.update, .delete])
            #expect(try todos.object("a")?.state == .deleted)

            let start = backend.requestLog.count
            let events = store.syncEvents()
            let report = try await store.flush()
            #expect(Self.pushed(backend, since: start).map(\.kind) == [.delete])
            #expect(report.pushed == 1 && report.failed == 0 && report.pending == 0)
            // Progress counts the update that gave way as settled: it ends at 2 of 2.
            let push = await SyncEventTests.collect(events).compactMap { if case .progress(let p) = $0 { p } else { nil } }
            #expect(push.last.map { $0.processed == 2 && $0.total == 2 } == true, "\(push)")
            #expect(backend.serverRecord(collection: "todos", id: "a") == nil)
            #expect(try todos.object("a") == nil)
            #expect(try store.queueCount() == 0)
        }
    }

    @Test func aRetriedCreateOfAnObjectDeletedSinceSendsNothing() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), collections: Self.collections) { store, backend in
            let todos = store.collection("todos")
            try await todos.create(["id": "a", "title": "x"])
            backend.inject(.rejectOperation(id: "a", status: 422, body: "refused"))
            #expect(try await store.flush().failed == 1)
            backend.reset()
            try await todos.destroy("a")
            try store.retry("todos", id: "a")
            #expect(try store.queueEntries(collection: "todos", id: "a").map(\.kind) == [.create, .delete])

            let start = backend.requestLog.count
            let report = try await store.flush()
            // A delete under an id the server never gave could hit another record (a REST server
            // reads a temporary UUID starting with digits as that number): nothing is sent.
            #expect(Self.pushed(backend, since: start).isEmpty)
            #expect(report.pushed == 0 && report.failed == 0 && report.pending == 0)
            #expect(try todos.object("a") == nil)
            #expect(try store.queueCount() == 0)
        }
    }

    @Test func aCreateOrUpdateWithNoCopyAndNoDeleteBehindIsCorrupted() throws {
        #expect(try SendPayloadRule.decide(seq: 1, kind: .delete, attempts: 0, sentData: nil, local: nil,
                                           onServer: true, deleteQueuedBehind: false) == .send(nil))
        #expect(try SendPayloadRule.decide(seq: 1, kind: .update, attempts: 2, sentData: ["v": 1], local: ["v": 2],
                                           onServer: true, deleteQueuedBehind: false) == .send(["v": 1]))
        #expect(try SendPayloadRule.decide(seq: 1, kind: .update, attempts: 2, sentData: nil, local: ["v": 2],
                                           onServer: true, deleteQueuedBehind: false) == .send(["v": 2]))
        #expect(try SendPayloadRule.decide(seq: 1, kind: .update, attempts: 3, sentData: nil, local: nil,
                                           onServer: true, deleteQueuedBehind: true) == .supersededByDelete)
        #expect(try SendPayloadRule.decide(seq: 1, kind: .create, attempts: 3, sentData: nil, local: nil,
                                           onServer: false, deleteQueuedBehind: true) == .cancelledByDelete)
        #expect(try SendPayloadRule.decide(seq: 1, kind: .create, attempts: 3, sentData: nil, local: nil,
                                           onServer: true, deleteQueuedBehind: true) == .supersededByDelete)
        let error = #expect(throws: OfflineStoreError.self) {
            try SendPayloadRule.decide(seq: 7, kind: .update, attempts: 3, sentData: nil, local: nil, onServer: true,
                                       deleteQueuedBehind: false)
        }
        #expect(error?.code == .corrupted && error?.message == "queue entry 7 has no local copy to send")
        // The queue is read only when it decides.
        var asked = false
        func ask() -> Bool { asked = true; return true }
        _ = try SendPayloadRule.decide(seq: 1, kind: .update, attempts: 0, sentData: nil, local: ["v": 1], onServer: true,
                                       deleteQueuedBehind: ask())
        #expect(!asked)
    }
}
