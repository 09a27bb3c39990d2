import Foundation
import Testing
@testable import OfflineStore

/// Every observation ends when its store is closed (Docs/Observing.md): a loop over it
/// leaves normally, with no error, and nothing of it keeps running.
@Suite(.timeLimit(.minutes(5))) struct ObservationCloseTests {
    /// Runs a loop over `sequence` in a task, waits until it received its first element
    /// (`started` says so), closes the store, and returns how many elements the loop saw
    /// once it ended; the suite's time limit fails a loop that does not end.
    static func endsOnClose<S: AsyncSequence & Sendable>(_ store: ObjectStore, _ sequence: S,
                                                         poke: @Sendable () async throws -> Void = {}) async throws -> Int
        where S.Element: Sendable {
        let (started, signal) = AsyncStream<Void>.makeStream()
        let loop = Task {
            var seen = 0
            for try await _ in sequence {
                seen += 1
                signal.yield()
            }
            return seen
        }
        try await poke()
        for await _ in started { break }
        try store.close()
        return try await loop.value
    }

    @Test func typedObserveAllEndsOnClose() async throws {
        let (temporary, _) = try makeTodoStore()
        let todos = temporary.store.collection(Todo.self)
        #expect(try await Self.endsOnClose(temporary.store, todos.observeAll(where: \.done == false)) >= 1)
    }

    @Test func jsonObserveAllEndsOnClose() async throws {
        let temporary = try TemporaryStore(collections: [CollectionDescriptor("todos")])
        #expect(try await Self.endsOnClose(temporary.store, temporary.store.collection("todos").observeAll()) >= 1)
    }

    @Test func observeObjectEndsOnClose() async throws {
        let temporary = try TemporaryStore(collections: [CollectionDescriptor("todos")])
        #expect(try await Self.endsOnClose(temporary.store, temporary.store.collection("todos").observeObject("a")) >= 1)
    }

    @Test func observePendingCountEndsOnClose() async throws {
        let temporary = try TemporaryStore(collections: [CollectionDescriptor("todos")])
        #expect(try await Self.endsOnClose(temporary.store, temporary.store.observePendingCount()) >= 1)
        #expect(temporary.store.observers.runningCount == 0)
    }

    @Test func streamsEndOnClose() async throws {
        let temporary = try TemporaryStore(collections: [CollectionDescriptor("todos")])
        let store = temporary.store
        let events = store.syncEvents(), changes = store.changes(in: "todos"), commits = store.commits()
        store.setOffline(true)
        await expectStoreError(.configuration) { try await store.flush() }   // one event: error(.flush, no backend)
        try await store.collection("todos").create(["id": "a"])       // one change, one commit
        #expect(try await Self.endsOnClose(store, events) >= 1)
        var rest = 0
        for await _ in changes { rest += 1 }
        for await _ in commits { rest += 1 }
        #expect(rest >= 2)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor @Test func liveQueryEndsOnClose() async throws {
        let (temporary, _) = try makeTodoStore()
        let live = LiveQuery(temporary.store.collection(Todo.self))
        try await waitUntil(live) { $0.isLoaded }
        #expect(live.isObserving)
        try temporary.store.close()
        await live.untilStopped()
        #expect(!live.isObserving)
        #expect(live.error == nil)
    }
}
