import Foundation
import Testing
@testable import OfflineStore

/// `commits()`: this store's committed writes, and other connections' as the store notices
/// them; the stream ends with its consumer or the store.
@Suite("Commit stream", .timeLimit(.minutes(5)))
struct CommitStreamTests {
    static var quickWatch: ObjectStore.Configuration {
        .with { $0.externalChangeInterval = .milliseconds(20) }
    }

    @Test func thisStoresWritesAndAnotherConnectionsAreToldApart() async throws {
        try await withTemporaryStore(configuration: Self.quickWatch, collections: [CollectionDescriptor("todos")]) { store in
            var commits = store.commits().makeAsyncIterator()
            try await store.collection("todos").create(["id": "a"])
            #expect(await commits.next() == .thisStore)

            let other = try ObjectStore(path: store.path)  // another writer on the same file, as another process
            defer { try? other.close() }
            try other.register(CollectionDescriptor("todos"))
            try await other.collection("todos").create(["id": "b"])
            #expect(await commits.next() == .otherConnection)
            #expect(try store.collection("todos").find("b") != nil)
        }
    }

    @Test func aWriteThatChangesNothingIsNoCommit() async throws {
        try await withTemporaryStore(collections: [CollectionDescriptor("todos")]) { store in
            var commits = store.commits().makeAsyncIterator()
            try store.setMetadata(nil, forKey: "absent")      // deletes no row: nothing committed
            try store.setMetadata("x", forKey: "present")     // one row
            #expect(await commits.next() == .thisStore)
            try store.close()
            #expect(await commits.next() == nil, "the write that changed nothing sent nothing, and close ends the stream")
        }
    }

    @Test func theStreamEndsWithItsConsumerAndSoDoesThePolling() async throws {
        try await withTemporaryStore(configuration: Self.quickWatch) { store in
            let watcher = store.observers.externalChanges
            withExtendedLifetime(store.commits()) {
                #expect(watcher.isPolling)
                #expect(store.observers.runningCount == 1)
            }
            #expect(!watcher.isPolling, "the last subscription gone, nothing polls")
            #expect(store.observers.runningCount == 0)
        }
    }
}
