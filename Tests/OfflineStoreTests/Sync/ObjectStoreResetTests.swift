import Foundation
import OfflineStoreTesting
import Testing
@testable import OfflineStore

/// Client reset, full reset and app metadata.
@Suite("Store reset and metadata")
struct ObjectStoreResetTests {
    /// A deferred store on an in-memory server with a synced `todos/s`, a pending edit
    /// of `todos/e`, a local-only `drafts/d` and app metadata.
    static func withSyncedStore(_ body: (ObjectStore, InMemoryBackend) async throws -> Void) async throws {
        let backend = InMemoryBackend()
        let collections = [CollectionDescriptor("todos"), CollectionDescriptor("drafts", localOnly: true)]
        try await withTemporaryStore(configuration: .with { $0.writeMode = .deferred }, backend: backend,
                                     collections: collections) { store in
            let todos = store.collection("todos")
            try await todos.create(["id": "s", "title": "synced"])
            try await todos.create(["id": "e", "title": "to edit"])
            try await store.sync()
            try await todos.patch("e", ["title": "edited"])
            try await store.collection("drafts").create(["id": "d", "text": "local only"])
            try store.setMetadata("http://127.0.0.1:1/v1", forKey: "server")
            try await body(store, backend)
        }
    }

    @Test func clientResetKeepsPendingEditsAndRefreshesInFull() async throws {
        try await Self.withSyncedStore { store, backend in
            backend.put(collection: "todos", id: "n", record: ["id": "n", "title": "new on the server"])
            try await store.resetSyncState()

            let todos = store.collection("todos")
            #expect(try todos.find("s") == nil)
            #expect(try todos.find("e") == ["id": "e", "title": "edited"])
            #expect(try store.queueCount() == 1)
            #expect(try store.collection("drafts").find("d") == ["id": "d", "text": "local only"])
            #expect(try store.syncEngine.storedCursor(of: "todos") == nil)
            #expect(try store.lastSync() == nil)
            #expect(try store.metadata(forKey: "server") == "http://127.0.0.1:1/v1")

            let report = try await store.sync()
            #expect(report.conflicts == 0 && report.pending == 0)
            #expect(try todos.find("s") == ["id": "s", "title": "synced"])
            #expect(try todos.find("n") == ["id": "n", "title": "new on the server"])
            #expect(backend.serverRecord(collection: "todos", id: "e")?.record == ["id": "e", "title": "edited"])
        }
    }

    @Test func fullResetDeletesEverythingButSettings() async throws {
        try await Self.withSyncedStore { store, _ in
            try await store.resetAll()
            #expect(try store.collection("todos").count() == 0)
            #expect(try store.collection("drafts").count() == 0)
            #expect(try store.queueCount() == 0)
            #expect(try store.syncEngine.storedCursor(of: "todos") == nil)
            #expect(try store.lastSync() == nil)
            #expect(store.collections().map(\.name) == ["drafts", "todos"])
            #expect(try store.metadata(forKey: "server") == "http://127.0.0.1:1/v1")

            try await store.refresh()
            #expect(try store.collection("todos").find("s") == ["id": "s", "title": "synced"])
        }
    }

    @Test func metadataIsKeptApartFromTheEnginesKeys() async throws {
        try await withTemporaryStore { store in
            #expect(try store.metadata(forKey: "lastSync") == nil)
            try store.setMetadata("not a date", forKey: "lastSync")
            #expect(try store.lastSync() == nil)
            #expect(try store.metadata(forKey: "lastSync") == "not a date")
            try store.setMetadata(nil, forKey: "lastSync")
            #expect(try store.metadata(forKey: "lastSync") == nil)
            let error = #expect(throws: OfflineStoreError.self) { try store.setMetadata("x", forKey: "") }
            #expect(error?.code == .invalidOperation)
        }
    }

    @Test func metadataSurvivesReopening() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.path("store.sqlite")
            let first = try ObjectStore(path: path)
            try first.setMetadata(#"{"bucket":"b"}"#, forKey: "cli")
            try first.close()
            let second = try ObjectStore(path: path)
            defer { try? second.close() }
            #expect(try second.metadata(forKey: "cli") == #"{"bucket":"b"}"#)
        }
    }
}
