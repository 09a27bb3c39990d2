import Foundation
import Testing
@testable import OfflineStore

/// An observation lives exactly as long as its consumer iterates: when the loop stops, the
/// database observation (or the stream's subscription) ends with it, and nothing of it
/// keeps running in the store.
@Suite("Observation lifetime", .timeLimit(.minutes(5)))
struct ObservationLifetimeTests {
    /// Iterates `sequence` until its first element, checking `whileRunning` then; returns it.
    /// The iterator is released when this returns, as it is when an app's loop ends.
    static func first<S: AsyncSequence>(of sequence: S, whileRunning: () -> Void) async throws -> S.Element? {
        for try await element in sequence {
            whileRunning()
            return element
        }
        return nil
    }

    @Test func everyObservationEndsWhenItsConsumerStops() async throws {
        try await withTemporaryStore(collections: [CollectionDescriptor("todos")]) { store in
            let todos = store.collection("todos")
            try await todos.create(["id": "a", "done": false])
            #expect(store.observers.runningCount == 0)

            let open = try await Self.first(of: todos.observeAll(where: .equal("done", false))) {
                #expect(store.observers.runningCount == 1)
            }
            #expect(open?.count == 1)
            #expect(store.observers.runningCount == 0, "observeAll ended with its loop")

            _ = try await Self.first(of: todos.observeObject("a")) { #expect(store.observers.runningCount == 1) }
            #expect(store.observers.runningCount == 0, "observeObject ended with its loop")

            _ = try await Self.first(of: store.observePendingCount()) { #expect(store.observers.runningCount == 1) }
            #expect(store.observers.runningCount == 0, "observePendingCount ended with its loop")

            do {   // subscribed before the write it reports, dropped at the end of the block
                let changes = store.changes(in: "todos")
                try await todos.patch("a", ["done": true])
                let change = try await Self.first(of: changes) { #expect(store.observers.runningCount == 1) }
                #expect(change?.id == "a")
            }
            #expect(store.observers.runningCount == 0, "changes(in:) ended with its loop")

            do {
                let events = store.syncEvents()
                store.setOffline(true)
                await expectStoreError(.configuration) { try await store.flush() }   // no backend
                _ = try await Self.first(of: events) { #expect(store.observers.runningCount == 1) }
            }
            #expect(store.observers.runningCount == 0, "syncEvents ended with its loop")

            // A consumer that stops while nothing was sent yet also ends its subscription.
            let waiting = Task { try await Self.first(of: store.changes(in: "todos")) {} }
            waiting.cancel()
            _ = try await waiting.value
            #expect(store.observers.runningCount == 0, "a cancelled consumer ended its stream")

            try await todos.patch("a", ["done": false])    // writes with no observer: nothing to wake
            #expect(try todos.find("a")?["done"] == false)
        }
    }
}
