import Foundation
import Observation
@testable import OfflineStore
import OfflineStoreTesting
import Testing

extension Models {
    @Suite("Live queries", .timeLimit(.minutes(5)))
    struct LiveQueryTests {
        @Test func observeAllYieldsAfterLocalEditsAndRefresh() async throws {
            try await withTodoStore { store, backend in
                let todos = store.collection(Todo.self)
                try await todos.save(Todo(id: "a", title: "A"))
                var iterator = todos.observeAll(where: \.done == false, orderBy: [.ascending(\.title)]).makeAsyncIterator()
                #expect(try await iterator.next()?.map(\.id) == ["a"])

                try await todos.save(Todo(id: "b", title: "B"))                          // a local edit
                #expect(try await iterator.next()?.map(\.id) == ["a", "b"])

                _ = backend.put(collection: "todos", id: "c", record: ["title": "C", "done": false])   // another client, then a refresh
                _ = try await store.refresh()
                #expect(try await iterator.next()?.map(\.id) == ["a", "b", "c"])

                try await todos.save(Todo(id: "a", title: "A", done: true))               // leaves the query
                #expect(try await iterator.next()?.map(\.id) == ["b", "c"])
            }
        }

        @Test func aQueryThatCannotRunThrowsWhileIterating() async throws {
            try await withTodoStore { store, _ in
                var iterator = store.collection(Todo.self).observeAll(where: \.isOverdue == true).makeAsyncIterator()
                let error = await #expect(throws: OfflineStoreError.self) { _ = try await iterator.next() }
                #expect(error?.code == .invalidFieldPath, "a computed property has no stored field to query")
            }
        }

        @Test func releasingTheIteratorCancelsTheDatabaseObservation() async throws {
            try await withTodoStore { store, _ in
                let todos = store.collection(Todo.self)
                try await todos.save(Todo(id: "a", title: "A"))
                weak var cancellable: AnyObject?
                do {
                    // What `for try await … { break }` does: make an iterator, take a value, drop it.
                    var iterator = todos.observeAll().makeAsyncIterator()
                    #expect(try await iterator.next()?.count == 1)
                    cancellable = findCancellable(in: iterator)
                    #expect(cancellable != nil)
                }
                // GRDB cancels its observation when its cancellable is released.
                #expect(cancellable == nil)
                try await todos.save(Todo(id: "b", title: "B"))
                #expect(try todos.count() == 2)
            }
        }

        /// GRDB's cancellable inside a model observation's iterator (found by reflection, a few levels deep).
        func findCancellable(in value: Any, depth: Int = 0) -> AnyObject? {
            guard depth < 4 else { return nil }
            for child in Mirror(reflecting: value).children {
                if child.label == "cancellable" { return child.value as AnyObject }
                if child.label == "collection" { continue }
                if let found = findCancellable(in: child.value, depth: depth + 1) { return found }
            }
            return nil
        }

        @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
        @MainActor
        @Test func liveQueryFollowsEditsSyncAndRefreshWithStatuses() async throws {
            let (temporary, backend) = try makeTodoStore()
            let store = temporary.store
            do {
                let todos = store.collection(Todo.self)
                try await todos.save(Todo(id: "a", title: "A"))
                let live = LiveQuery(todos, where: \.done == false, orderBy: [.ascending(\.title)])
                try await waitUntil(live) { $0.isLoaded }
                #expect(live.models.map(\.id) == ["a"])
                #expect(live.status(of: live.models[0]) == .pending)

                try await todos.save(Todo(id: "b", title: "B"))                                // local edit
                try await waitUntil(live) { $0.models.count == 2 }
                #expect(live.statuses == ["a": .pending, "b": .pending])

                _ = try await store.sync()                                                    // flush: statuses change only
                try await waitUntil(live) { $0.statuses.values.allSatisfy { $0 == .synced } }

                _ = backend.put(collection: "todos", id: "c", record: ["title": "C", "done": false])        // refresh
                _ = backend.put(collection: "todos", id: "bad", record: ["title": 1, "done": false])
                _ = try await store.refresh()
                try await waitUntil(live) { $0.models.count == 3 }
                #expect(live.models.map(\.id) == ["a", "b", "c"])
                #expect(live.undecodable.map(\.id) == ["bad"])
                #expect(live.statuses["c"] == .synced)

                live.stop()
                #expect(live.error == nil)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
        @MainActor
        @Test func waitingForALiveQueryEndsWhenTheWaitingTaskIsCancelled() async throws {
            let (temporary, _) = try makeTodoStore()
            let live = LiveQuery(temporary.store.collection(Todo.self))
            try await waitUntil(live) { $0.isLoaded }
            let waiting = Task { @MainActor in try await waitUntil(live) { $0.models.count == 99 } }
            await Task.yield()
            waiting.cancel()
            await #expect(throws: CancellationError.self) { try await waiting.value }
            #expect(live.isObserving, "cancelling the wait leaves the live query running")
            live.stop()
        }

        @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
        @MainActor
        @Test func liveQueryShowsConflicts() async throws {
            let (temporary, backend) = try makeTodoStore()
            let store = temporary.store
            do {
                let todos = store.collection(Todo.self)
                try await todos.save(Todo(id: "a", title: "A"))
                _ = try await store.sync()
                _ = backend.put(collection: "todos", id: "a", record: ["title": "A from the server", "done": false])
                try await todos.save(Todo(id: "a", title: "A from here"))
                let live = LiveQuery(todos)
                try await waitUntil(live) { $0.statuses["a"] == .pending }
                _ = try await store.sync()
                try await waitUntil(live) { $0.statuses["a"] == .conflicted }
                #expect(live.models.first?.title == "A from here")
            }
        }
    }
}

/// Waits, without sleeping, until `condition` holds for `live`: re-checks after every
/// change `withObservationTracking` reports on the properties the condition reads.
///
/// - Throws: the live query's error when it stops; `CancellationError` as soon as the
///   waiting task is cancelled.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
func waitUntil<M: SyncModel>(_ live: LiveQuery<M>, _ condition: @escaping @MainActor (LiveQuery<M>) -> Bool) async throws {
    while !condition(live) {
        if let error = live.error { throw error }
        try Task.checkCancellation()
        let wake = Wake()
        await withTaskCancellationHandler {
            // Nothing else runs on the main actor between the check above and the tracking
            // below, so no change can slip in between.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                wake.arm(continuation)
                withObservationTracking {
                    _ = live.error
                    _ = condition(live)
                } onChange: {
                    wake.fire()
                }
            }
        } onCancel: {
            wake.fire()
        }
    }
    try Task.checkCancellation()
}

/// Resumes one continuation once, whichever comes first: a change or a cancellation (which
/// may come before the continuation is armed).
private final class Wake: Sendable {
    private let state = Locked<(fired: Bool, continuation: CheckedContinuation<Void, Never>?)>((false, nil))

    func arm(_ continuation: CheckedContinuation<Void, Never>) {
        let resumeNow = state.withLock { state in
            if state.fired { return true }
            state.continuation = continuation
            return false
        }
        if resumeNow { continuation.resume() }
    }

    func fire() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.fired else { return nil }
            state.fired = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}
