import Foundation
import Testing
@testable import OfflineStore

/// Observed queries see what other processes commit to the same file: an `offline-store`
/// process edits, this process observes (GRDB's observation alone sees only its own writes).
@Suite("Observation across processes", .timeLimit(.minutes(5)))
struct CLIObservationAcrossProcessesTests {
    struct TimedOut: Error {}

    /// The values of an observation, relayed from a task that iterates it, so a test can
    /// wait for the first (current) value before another process writes.
    final class Relay<Element: Sendable>: Sendable {
        let values: AsyncStream<Element>
        private let task: Task<Void, Never>

        init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element {
            let (values, continuation) = AsyncStream<Element>.makeStream()
            self.values = values
            task = Task {
                do { for try await value in sequence { continuation.yield(value) } } catch {}
                continuation.finish()
            }
        }

        /// Ends the observation (the consumer stops iterating).
        func cancel() { task.cancel() }

        /// The next value, or `TimedOut` after `limit` (a bound on a test that would
        /// otherwise hang; nothing waits on it for synchronisation).
        func next(within limit: Duration = .seconds(20)) async throws -> Element {
            let values = self.values
            return try await withThrowingTaskGroup(of: Element?.self) { group in
                group.addTask {
                    var iterator = values.makeAsyncIterator()
                    return await iterator.next()
                }
                group.addTask {
                    try await Task.sleep(for: limit)
                    throw TimedOut()
                }
                defer { group.cancelAll() }
                guard let value = try await group.next() ?? nil else { throw TimedOut() }
                return value
            }
        }
    }

    static func store(at path: String) throws -> ObjectStore {
        var configuration = ObjectStore.Configuration()
        configuration.externalChangeInterval = .milliseconds(20)
        return try ObjectStore(path: path, configuration: configuration)
    }

    @Test func anObservedQuerySeesAnotherProcesssEditsAndStopsPollingWhenDropped() async throws {
        try await CLIWorkspace.with { workspace in
            let cli = try await workspace.store("shared").initialiseOffline()
            let store = try Self.store(at: cli.path)
            defer { try? store.close() }
            let todos = store.collection("todos")
            let watcher = store.observers.externalChanges

            // The current values come first; only then does the other process write.
            let objects = Relay(todos.observeAll()), pending = Relay(store.observePendingCount())
            #expect(try await objects.next() == [])
            #expect(try await pending.next() == 0)
            try await cli.expect(0, "create", "todos", #"{"title":"from the CLI"}"#, "--id", "x")
            #expect(try await objects.next() == [["id": "x", "title": "from the CLI"]])
            #expect(try await pending.next() == 1)
            try await cli.expect(0, "create", "todos", #"{"title":"second"}"#, "--id", "y")
            #expect(try await objects.next().count == 2)
            #expect(try await pending.next() == 2)
            objects.cancel()
            pending.cancel()

            // Both observations ended with their consumers: nothing polls any more.
            // Polls a condition; the suite's time limit, not a shorter deadline, is the hang guard.
            while watcher.isPolling { try await Task.sleep(for: .milliseconds(5)) }
            #expect(watcher.isPolling == false)
        }
    }

    @Test func withoutAnIntervalOnlyThisProcesssWritesAreSeen() async throws {
        try await CLIWorkspace.with { workspace in
            let cli = try await workspace.store("shared").initialiseOffline()
            var configuration = ObjectStore.Configuration()
            configuration.externalChangeInterval = nil
            let store = try ObjectStore(path: cli.path, configuration: configuration)
            defer { try? store.close() }
            let objects = Relay(store.collection("todos").observeAll())
            #expect(try await objects.next() == [])
            try await cli.expect(0, "create", "todos", #"{"title":"unseen"}"#, "--id", "x")
            await #expect(throws: TimedOut.self) { try await objects.next(within: .seconds(2)) }
            objects.cancel()
            #expect(store.observers.externalChanges.isPolling == false)
        }
    }
}
