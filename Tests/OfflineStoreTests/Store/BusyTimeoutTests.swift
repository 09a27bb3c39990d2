import Foundation
import GRDB
import Testing
@testable import OfflineStore

/// Opening and editing wait for another connection's write transaction up to
/// `Configuration.busyTimeout`, then fail with `locked`, having stored nothing
/// (Docs/Errors.md). The other connection is a plain SQLite connection to the same file,
/// as another process's would be; SQLite's busy handler waits in real time, so the waits
/// here are tens of milliseconds, and a test that expects the wait to end sets a busy
/// timeout longer than its own time limit: it never races a deadline.
@Suite("Busy timeout", .timeLimit(.minutes(1)))
struct BusyTimeoutTests {
    /// Longer than the suite's time limit: only the other transaction's end can end the wait.
    static let patient = ObjectStore.Configuration.with { $0.busyTimeout = .seconds(600) }
    /// Short: the other transaction is never ended before it runs out.
    static let impatient = ObjectStore.Configuration.with { $0.busyTimeout = .milliseconds(30) }

    /// A second connection to the store file that holds a write transaction between calls.
    final class OtherWriter: Sendable {
        let queue: DatabaseQueue
        /// Set just before the other transaction commits: a wait that ended saw it.
        let committing = Locked(false)

        init(path: String) throws {
            var configuration = GRDB.Configuration()
            configuration.allowsUnsafeTransactions = true
            queue = try DatabaseQueue(path: path, configuration: configuration)
        }

        func begin() throws {
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('other-writer', 'was here')")
            }
        }

        /// Commits on a thread of its own (not the tests' pool, which the waiting call blocks) after `delay`.
        func commit(after delay: TimeInterval) {
            Thread { [self] in
                Thread.sleep(forTimeInterval: delay)
                committing.withLock { $0 = true }
                try? queue.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
            }.start()
        }

        func rollback() throws {
            try queue.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        }
    }

    /// A store file with one collection, closed.
    static func makeStore(at path: String) async throws {
        let store = try ObjectStore(path: path)
        try store.register(CollectionDescriptor("todos"))
        try await store.collection("todos").create(["id": "a"])
        try store.close()
    }

    @Test func openingWaitsForAnotherConnectionsTransaction() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.path("store.sqlite")
            try await Self.makeStore(at: path)
            let other = try OtherWriter(path: path)
            try other.begin()
            other.commit(after: 0.02)
            let store = try ObjectStore(path: path, configuration: Self.patient)
            defer { try? store.close() }
            #expect(other.committing.withLock { $0 }, "the open returned only once the other transaction ended")
            #expect(try store.local.read("reading") { db in try MetaTable.value(forKey: "other-writer", in: db) } == "was here")
        }
    }

    @Test func anEditWaitsForAnotherConnectionsTransaction() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.path("store.sqlite")
            try await Self.makeStore(at: path)
            let store = try ObjectStore(path: path, configuration: Self.patient)
            defer { try? store.close() }
            let other = try OtherWriter(path: path)
            try other.begin()
            other.commit(after: 0.02)
            try await store.collection("todos").save(["id": "b", "n": 1])
            #expect(other.committing.withLock { $0 }, "the save returned only once the other transaction ended")
            #expect(try store.collection("todos").find("b") == ["id": "b", "n": 1])
            #expect(try store.queueEntries().map(\.objectID) == ["a", "b"])
        }
    }

    /// Past the timeout: `locked`, and the edit is not stored (no row, no queue entry), and
    /// the suggestion says so.
    @Test func pastTheTimeoutOpeningAndEditingFailLockedAndNothingIsStored() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.path("store.sqlite")
            try await Self.makeStore(at: path)
            let store = try ObjectStore(path: path, configuration: Self.impatient)
            defer { try? store.close() }
            let todos = store.collection("todos")
            let other = try OtherWriter(path: path)
            try other.begin()

            let opening = expectStoreError(.locked) { try ObjectStore(path: path, configuration: Self.impatient) }
            #expect(opening?.dataFate == .unchanged)
            let saving = await expectStoreError(.locked) { try await todos.save(["id": "b", "n": 1]) }
            #expect(saving?.dataFate == .notStored)
            #expect(saving?.recoverySuggestion
                    == "Your change was not saved. Another part of the app, or another app, is saving data; try again in a moment.")
            for edit: @Sendable () async throws -> Void in [
                { try await todos.patch("a", ["n": 2]) },
                { try await todos.destroy("a") },
                { _ = try await store.transaction { tx in try tx.create(["id": "c"], in: "todos") } },
            ] {
                let error = await expectStoreError(.locked) { try await edit() }
                #expect(error?.dataFate == .notStored)
            }
            try other.rollback()
            #expect(try todos.find("b") == nil && todos.find("c") == nil)
            #expect(try todos.find("a") == ["id": "a"])
            #expect(try store.queueEntries().map(\.objectID) == ["a"])
        }
    }
}
