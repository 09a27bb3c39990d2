import Foundation
import OfflineStore
import Testing
@testable import OfflineStoreInspector

/// The live view's two halves without a browser: the watcher notices commits made through
/// another connection (as another process would), and the queue history names coalescing.
@Suite("Inspector live view")
struct InspectorLiveViewTests {
    @Test func theWatcherSeesCommitsOfAnotherConnectionAndNothingElse() async throws {
        try await withTemporaryStore(collections: [CollectionDescriptor("todos")]) { store in
            let watcher = try ChangeWatcher(store: store, history: QueueHistory())
            defer { watcher.close() }
            #expect(watcher.check())        // the first look
            #expect(!watcher.check())       // nothing committed since
            let other = try ObjectStore(path: store.path)  // another writer on the same file
            defer { try? other.close() }
            try other.register(CollectionDescriptor("todos"))
            try await other.collection("todos").create(["id": "a", "n": 1])
            #expect(watcher.check())
            #expect(watcher.generation == 2)
            #expect(!watcher.check())
        }
    }

    @Test func theHistoryNamesFoldedEditsAndCancelledCreates() async throws {
        try await withTemporaryStore(collections: [CollectionDescriptor("todos")]) { store in
            let todos = store.collection("todos")
            let history = QueueHistory()
            try await todos.create(["id": "a", "n": 1])
            history.observe(store)  // the baseline: nothing noted
            let seq = try #require(try store.queueEntries().first?.seq)
            #expect(history.notes(for: seq).isEmpty)

            try await todos.patch("a", ["n": 2])
            history.observe(store)
            #expect(history.folded(into: seq) == 1)
            #expect(history.notes(for: seq) == ["an edit folded in (coalesced; one request will send the latest copy)"])

            try await todos.create(["id": "b"])
            history.observe(store)
            let b = try #require(try store.queueEntries(collection: "todos", id: "b").first?.seq)
            #expect(history.notes(for: b) == ["queued as create"])
            try await todos.destroy("b")
            history.observe(store)
            let departure = try #require(history.departures.first)
            #expect(departure.seq == b && departure.id == "b")
            #expect(departure.note.hasPrefix("cancelled: the object was deleted before its create was sent"))
        }
    }
}
