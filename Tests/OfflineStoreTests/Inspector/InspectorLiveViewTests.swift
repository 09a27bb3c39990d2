import Foundation
import OfflineStore
import Testing
@testable import OfflineStoreInspector

/// The live view's two halves without a browser: the watcher looks after commits, and the
/// queue history names coalescing.
@Suite("Inspector live view", .timeLimit(.minutes(5)))
struct InspectorLiveViewTests {
    /// The watcher looks at the queue once per batch of received commits; the commits
    /// themselves come from the library (another connection's as the store notices them:
    /// `CommitStreamTests`), and the browser test follows one made by another process live.
    @Test func theWatcherLooksOnceAfterCommitsAndNotWithoutThem() async throws {
        try await withTemporaryStore(collections: [CollectionDescriptor("todos")]) { store in
            let watcher = ChangeWatcher(store: store, history: QueueHistory())
            #expect(watcher.check())        // the first look: the baseline
            #expect(!watcher.check())       // nothing received since
            var commits = store.commits().makeAsyncIterator()
            let other = try ObjectStore(path: store.path)  // another writer on the same file
            defer { try? other.close() }
            try other.register(CollectionDescriptor("todos"))
            try await other.collection("todos").create(["id": "a", "n": 1])
            while let commit = await commits.next(), commit != .otherConnection {}
            watcher.receive(.otherConnection)
            watcher.receive(.thisStore)
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
