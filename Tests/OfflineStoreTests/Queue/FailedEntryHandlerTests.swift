import Foundation
import OfflineStoreTesting
import Testing
@testable import OfflineStore

/// Per-field messages, per-kind actions, the app's error handler and held-back dependents (SPEC §8).
@Suite("Failed entry handler and messages")
struct FailedEntryHandlerTests {
    static let todos = [CollectionDescriptor("todos")]

    /// Deferred writes with `handler` deciding on rejected entries.
    static func handling(_ handler: @escaping FailedEntryHandler) -> ObjectStore.Configuration {
        .deferred.with { $0.failedEntryHandler = handler }
    }

    @Test func validationMessagesAreParsedInEveryKnownShape() {
        #expect(ValidationMessages(parsing: #"{"title":["is too short","is bad"],"due":["must be a date"]}"#).fields
                == ["title": ["is too short", "is bad"], "due": ["must be a date"]])
        #expect(ValidationMessages(parsing: #"{"errors":{"title":["is too short"],"n":"not a number"}}"#).fields
                == ["title": ["is too short"]])
        #expect(ValidationMessages(parsing: #"{"errors":{"n":"not a number"}}"#)["n"] == ["not a number"])
        let kinto = #"{"code":400,"errno":107,"message":"x","details":[{"location":"body","name":"data.title","description":"too long"}]}"#
        #expect(ValidationMessages(parsing: kinto).fields == ["title": ["too long"]])
        // Not field messages: plain text, Kinto's generic error, a list.
        #expect(ValidationMessages(parsing: "title too short").isEmpty)
        #expect(ValidationMessages(parsing: #"{"code":422,"message":"invalid"}"#).isEmpty)
        #expect(ValidationMessages(parsing: "[1,2]").isEmpty)
        #expect(ValidationMessages(parsing: nil).isEmpty)
    }

    @Test func aFailedEntryCarriesItsParsedMessagesAndAllowedActions() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), collections: Self.todos) { store, backend in
            try await store.collection("todos").create(["id": "a", "title": "x"])
            backend.inject(.rejectOperation(id: "a", status: 422, body: #"{"errors":{"title":["is too short"]}}"#))
            try await store.flush()
            let entry = try #require(try store.failedEntries().first)
            #expect(entry.validationMessages["title"] == ["is too short"])
            #expect(entry.allowedActions == [.discard, .retry])
            let refused = #expect(throws: OfflineStoreError.self) { try store.perform(.rollback, on: "todos", id: "a") }
            #expect(refused?.code == .invalidOperation)
            #expect(refused?.message.contains("discard") == true)
            #expect(try store.failedEntries().count == 1)   // nothing changed
            #expect(FailedEntryAction.allowed(for: .update) == [.retry, .rollback])
            #expect(FailedEntryAction.allowed(for: .delete) == [.retry, .rollback])
        }
    }

    @Test func theHandlerDiscardsARejectedCreateDuringTheFlush() async throws {
        let seen = Recorder<String>()
        try await withTemporaryStore(server: InMemoryBackend(), configuration: Self.handling({ entry, object in
            seen.append("\(entry.kind.rawValue) \(entry.status ?? 0) \(object?.value?["title"]?.stringValue ?? "-")")
            return entry.kind == .create ? .discard : nil
        }), collections: Self.todos) { store, backend in
            let todos = store.collection("todos")
            try await todos.create(["id": "bad", "title": "x"])
            try await todos.create(["id": "good", "title": "fine"])
            backend.inject(.rejectOperation(id: "bad", status: 422))
            let report = try await store.flush()
            #expect(seen.values == ["create 422 x"])
            #expect(report.failed == 0 && report.pending == 0 && report.pushed == 1)
            #expect(try todos.find("bad") == nil)
            #expect(backend.serverRecord(collection: "todos", id: "good") != nil)
            #expect(backend.serverRecord(collection: "todos", id: "bad") == nil)
        }
    }

    @Test func theHandlerRollsBackARejectedUpdate() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), configuration: Self.handling({ _, _ in .rollback }), collections: Self.todos) { store, backend in
            let todos = store.collection("todos")
            try await todos.create(["id": "a", "title": "one"])
            try await store.flush()
            try await todos.patch("a", ["title": "two"])
            backend.inject(.rejectOperation(id: "a", status: 400))
            let report = try await store.flush()
            #expect(report.failed == 0 && report.pending == 0)
            #expect(try todos.find("a") == ["id": "a", "title": "one"])
            #expect(try todos.object("a")?.state == .synced)
        }
    }

    @Test func aHandlerRetryIsSentByTheNextFlushNotThisOne() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), configuration: Self.handling({ _, _ in .retry }), collections: Self.todos) { store, backend in
            try await store.collection("todos").create(["id": "a", "title": "x"])
            backend.inject(.rejectOperation(id: "a", status: 422))
            let first = try await store.flush()
            #expect(first.pending == 1 && first.failed == 0 && first.pushed == 0)
            #expect(backend.requestLog.filter { if case .push = $0 { true } else { false } }.count == 1)
            #expect(try store.onlyEntry("todos", "a").state == .pending)
            let second = try await store.flush()
            #expect(second.pushed == 1 && second.pending == 0)
        }
    }

    @Test func aHandlerChoosingAnActionThatDoesNotApplyLeavesTheEntryFailed() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), configuration: Self.handling({ _, _ in .rollback }), collections: Self.todos) { store, backend in
            try await store.collection("todos").create(["id": "a", "title": "x"])
            backend.inject(.rejectOperation(id: "a", status: 422))
            let report = try await store.flush()
            #expect(report.failed == 1)
            #expect(try store.collection("todos").object("a")?.hasFailedWrite == true)
        }
    }

    @Test func dependentsOfAFailedEntryAreHeldBackAndReported() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), collections: Self.todos) { store, backend in
            let todos = store.collection("todos")
            try await todos.create(["id": "a", "title": "x"])
            try await todos.create(["id": "b", "title": "unrelated"])
            backend.inject(.rejectOperation(id: "a", status: 422))
            try await store.flush()
            try await todos.patch("a", ["title": "xx"])
            try await todos.patch("b", ["title": "still unrelated"])
            let report = try await store.flush()
            #expect(report.pushed == 1)            // b went out
            #expect(report.failed == 1 && report.pending == 1 && report.heldBack == 1)
            let held = try store.heldBackEntries()
            #expect(held.map(\.objectID) == ["a"])
            #expect(held.first?.state == .pending)
            try store.retry("todos", id: "a")
            #expect(try store.heldBackEntries().isEmpty)
            let after = try await store.flush()
            #expect(after.heldBack == 0 && after.pending == 0)
            #expect(backend.serverRecord(collection: "todos", id: "a")?.record == ["id": "a", "title": "xx"])
        }
    }
}

/// Collects values from `@Sendable` closures.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = Locked<[Value]>([])
    func append(_ value: Value) { storage.withLock { $0.append(value) } }
    var values: [Value] { storage.withLock { $0 } }
}
