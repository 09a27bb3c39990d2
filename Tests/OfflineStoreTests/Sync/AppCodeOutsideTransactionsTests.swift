import Foundation
import OfflineStoreTesting
import Testing
@testable import OfflineStore

/// Decide, write, then tell the app: the failed-entry handler and a custom conflict
/// resolver run after the transaction that met the rejection or conflict committed, so they
/// may use the store themselves, and their answers apply only to the state they saw.
@Suite("App code outside transactions")
struct AppCodeOutsideTransactionsTests {
    /// The store, reachable from app callbacks that are configured before it opens.
    final class StoreBox: Sendable {
        let store = Locked<ObjectStore?>(nil)
        var value: ObjectStore { store.withLock { $0! } }
    }

    static func withStoreReachableFromCallbacks(_ configure: (StoreBox, inout ObjectStore.Configuration) -> Void,
                          collection: CollectionDescriptor = CollectionDescriptor("todos"),
                          _ body: (ObjectStore, InMemoryBackend) async throws -> Void) async throws {
        let box = StoreBox()
        var configuration = ObjectStore.Configuration.with { $0.writeMode = .deferred }
        configure(box, &configuration)
        let backend = InMemoryBackend()
        try await withTemporaryStore(configuration: configuration, backend: backend, collections: [collection]) { store in
            box.store.withLock { $0 = store }
            // The store's configuration holds the callbacks, which hold the box: emptied, it
            // lets the store go when the test ends.
            defer { box.store.withLock { $0 = nil } }
            try await body(store, backend)
        }
    }

    /// Syncs `todos/a`, lets another client change it, edits it here and flushes: the
    /// flush meets a conflict on `a`.
    static func flushIntoAConflictOnA(_ store: ObjectStore, _ backend: InMemoryBackend) async throws -> SyncReport {
        let todos = store.collection("todos")
        try await todos.create(["id": "a", "title": "first"])
        try await store.flush()
        backend.put(collection: "todos", id: "a", record: ["id": "a", "title": "theirs"])
        try await todos.patch("a", ["title": "mine"])
        return try await store.flush()
    }

    @Test func theFailedEntryHandlerMayReadAndWriteTheStore() async throws {
        try await Self.withStoreReachableFromCallbacks({ box, configuration in
            configuration.failedEntryHandler = { entry, _ in
                // Inside the flush's write transaction, this write would wait for itself.
                try? box.value.setMetadata("\(entry.objectID) rejected", forKey: "last-rejection")
                let seen = (try? box.value.queueEntries(id: nil).count) ?? -1
                try? box.value.setMetadata(String(seen), forKey: "queue-seen")
                return .discard
            }
        }) { store, backend in
            try await store.collection("todos").create(["id": "a", "title": "x"])
            backend.inject(.rejectOperation(id: "a", status: 422, body: nil))
            let report = try await store.flush()
            #expect(try store.metadata(forKey: "last-rejection") == "a rejected")
            #expect(try store.metadata(forKey: "queue-seen") == "1", "the handler saw the committed failed entry")
            #expect(try store.collection("todos").find("a") == nil, "its discard was applied")
            #expect(report.failed == 0)
        }
    }

    @Test func aCustomResolverMayUseTheStoreAndItsAnswerIsSentInTheSameRun() async throws {
        let box = StoreBox()
        let resolver: ConflictResolver = { conflict in
            try? box.value.setMetadata("\(conflict.id) at \(conflict.serverVersion ?? "-")", forKey: "resolved")
            return .merged(["id": .string(conflict.id), "title": "merged"])
        }
        try await Self.withStoreReachableFromCallbacks({ _, _ in }, collection: CollectionDescriptor("todos", conflictPolicy: .custom(resolver))) { store, backend in
            box.store.withLock { $0 = store }
            defer { box.store.withLock { $0 = nil } }   // the resolver, kept by the store, holds the box
            let report = try await Self.flushIntoAConflictOnA(store, backend)
            #expect(report.conflictsDetected == 1 && report.conflictsResolved == 1, "\(report)")
            #expect(try store.metadata(forKey: "resolved")?.hasPrefix("a at ") == true)
            #expect(backend.serverRecord(collection: "todos", id: "a")?.record == ["id": "a", "title": "merged"])
            #expect(try store.conflicts().isEmpty)
        }
    }

    @Test func aResolverAnswerForAnObjectThatMovedOnIsNotApplied() async throws {
        let box = StoreBox()
        let resolver: ConflictResolver = { conflict in
            // The app edits the object while deciding: the answer no longer fits it.
            try? box.value.local.write("editing meanwhile") { db in
                var row = try ObjectRow.fetch(db, collection: conflict.collection, id: conflict.id)!
                row.localRev += 1
                try row.save(db)
            }
            return .keepServer
        }
        try await Self.withStoreReachableFromCallbacks({ _, _ in }, collection: CollectionDescriptor("todos", conflictPolicy: .custom(resolver))) { store, backend in
            box.store.withLock { $0 = store }
            defer { box.store.withLock { $0 = nil } }   // the resolver, kept by the store, holds the box
            let report = try await Self.flushIntoAConflictOnA(store, backend)
            #expect(report.conflictsDetected == 1 && report.conflictsResolved == 0, "\(report)")
            #expect(try store.conflicts().map(\.id) == ["a"], "the conflict stays for the app")
            #expect(try store.collection("todos").find("a")?["title"] == "mine")
        }
    }
}
