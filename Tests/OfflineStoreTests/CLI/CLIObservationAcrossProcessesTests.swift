import Foundation
import Testing
@testable import OfflineStore

/// Observed queries see what other processes commit to the same file: an `offline-store`
/// process edits, this process observes (GRDB's observation alone sees only its own writes).
@Suite("Observation across processes")
struct CLIObservationAcrossProcessesTests {
    struct TimedOut: Error {}

    /// The first value of `values` that satisfies `predicate`, or `TimedOut` after `limit`
    /// (a bound on a test that would otherwise hang; nothing waits on it for synchronisation).
    static func first<S: AsyncSequence & Sendable>(_ values: S, within limit: Duration = .seconds(20),
                                                   where predicate: @escaping @Sendable (S.Element) -> Bool)
        async throws -> S.Element where S.Element: Sendable {
        try await withThrowingTaskGroup(of: S.Element?.self) { group in
            group.addTask {
                for try await value in values where predicate(value) { return value }
                return nil
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
            let watcher = store.runtime.externalChanges

            let seen = Task { try await Self.first(todos.observeAll()) { $0.count == 1 } }
            try await cli.expect(0, "create", "todos", #"{"title":"from the CLI"}"#, "--id", "x")
            #expect(try await seen.value == [["id": "x", "title": "from the CLI"]])

            let pending = Task { try await Self.first(store.observePendingCount()) { $0 == 2 } }
            try await cli.expect(0, "create", "todos", #"{"title":"second"}"#, "--id", "y")
            #expect(try await pending.value == 2)

            // Both observations ended with their consumers: nothing polls any more.
            let deadline = ContinuousClock.now + .seconds(10)
            while watcher.isPolling && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }   // polls a condition
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
            let observed = Task { try await Self.first(store.collection("todos").observeAll(), within: .seconds(2)) { $0.count == 1 } }
            try await cli.expect(0, "create", "todos", #"{"title":"unseen"}"#, "--id", "x")
            await #expect(throws: TimedOut.self) { try await observed.value }
            #expect(store.runtime.externalChanges.isPolling == false)
        }
    }
}
