import Foundation
@testable import OfflineStore
import OfflineStoreTesting
import Testing

/// A suspension's deadline: a request that keeps moving past it is cancelled, the sync lock
/// is released at the deadline, and what it carried is resent after resume; a request that
/// ends before it is settled as before. All on the manual clock.
@Suite("Suspension deadline", .timeLimit(.minutes(5)))
struct SuspensionDeadlineTests {
    /// A file store (the sync lock is a real `flock`) with `count` queued creates, on an
    /// in-memory server behind a ``MovingRequestBackend`` that takes one operation per push.
    static func store(queued count: Int, in directory: URL, clock: ManualClock) async throws
    -> (ObjectStore, MovingRequestBackend) {
        let backend = MovingRequestBackend(base: InMemoryBackend(maxBatchSize: 1), clock: clock)
        var configuration = ObjectStore.Configuration()
        configuration.writeMode = .deferred
        let store = try ObjectStore(path: directory.appendingPathComponent("store.sqlite").path,
                                    configuration: configuration, backend: backend)
        try store.register(CollectionDescriptor("todos"))
        for n in 0..<count { try await store.collection("todos").create(["id": .string("t\(n)"), "n": .int(Int64(n))]) }
        return (store, backend)
    }

    static func withDirectory(_ body: (URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("deadline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(directory)
    }

    /// Advances `clock` second by second, each time once the request's next piece and the
    /// suspension's deadline are both waiting on it.
    static func advance(_ clock: ManualClock, seconds: Int) async {
        for _ in 0..<seconds {
            await clock.waitForSleepers(count: 2)
            clock.advance(by: .seconds(1))
        }
    }

    @Test func aPushStillMovingAtTheDeadlineIsCancelledTheLockReleasedAndTheEditResentAfterResume() async throws {
        try await Self.withDirectory { directory in
            let clock = ManualClock()
            let (store, backend) = try await Self.store(queued: 1, in: directory, clock: clock)
            defer { try? store.close() }
            backend.move([.push])
            let running = Task { try await store.sync() }
            await clock.waitForSleepers()                          // the push was applied; its answer is arriving
            #expect(store.isSyncing)

            let suspending = Task { await store.suspend(within: .seconds(5), clock: clock) }
            await Self.advance(clock, seconds: 5)
            await suspending.value
            #expect(clock.now.offset == .seconds(5), "suspend returned at its deadline")
            #expect(backend.pieces >= 4, "the answer kept arriving until the deadline: \(backend.pieces) pieces")
            #expect(!store.isSyncing, "the sync lock (the file lock too) is released")
            #expect(store.isSuspended)

            let stop = try await #require(throws: OfflineStoreError.self) { try await running.value }
            #expect(stop.code == .cancelled)
            #expect(stop.message.contains("suspended") && stop.message.contains("deadline"), "\(stop.message)")
            #expect(stop.report?.pushed == 0 && stop.report?.pending == 1, "the edit stays queued: \(String(describing: stop.report))")
            #expect(try store.queueCount(state: .pending) == 1)

            // After resume the edit is resent; the server, which had applied it, keeps one copy.
            store.resume()
            backend.move([])
            let report = try await store.sync()
            #expect(report.pending == 0 && report.failed == 0 && report.conflicts == 0, "\(report)")
            #expect(backend.base.allRecords(collection: "todos").count == 1)
            #expect(backend.base.serverRecord(collection: "todos", id: "t0")?.record["n"] == .int(0))
            #expect(try store.collection("todos").object("t0")?.state == .synced)
        }
    }

    @Test func aPushThatEndsBeforeTheDeadlineIsSettledAndTheRunStopsThen() async throws {
        try await Self.withDirectory { directory in
            let clock = ManualClock()
            let (store, backend) = try await Self.store(queued: 3, in: directory, clock: clock)
            defer { try? store.close() }
            backend.move([.push], finishingAfter: 2)
            let running = Task { try await store.sync() }
            await clock.waitForSleepers()

            let suspending = Task { await store.suspend(within: .seconds(5), clock: clock) }
            await Self.advance(clock, seconds: 2)
            await suspending.value
            #expect(clock.now.offset == .seconds(2), "suspend returned when the answer ended, before its deadline")
            #expect(!store.isSyncing)

            let stop = try await #require(throws: OfflineStoreError.self) { try await running.value }
            #expect(stop.code == .cancelled)
            #expect(stop.message.contains("suspended") && !stop.message.contains("deadline"), "\(stop.message)")
            #expect(stop.report?.pushed == 1 && stop.report?.pending == 2, "the answer was settled, nothing more was sent")
            #expect(backend.base.pushCallCount == 1)

            store.resume()
            backend.move([])
            let report = try await store.sync()
            #expect(report.pushed == 2 && report.pending == 0)
        }
    }

    @Test func aPageStillArrivingAtTheDeadlineIsCancelledAndPulledAgainAfterResume() async throws {
        try await Self.withDirectory { directory in
            let clock = ManualClock()
            let (store, backend) = try await Self.store(queued: 0, in: directory, clock: clock)
            defer { try? store.close() }
            _ = backend.base.put(collection: "todos", id: "s1", record: ["id": "s1", "title": "from the server"])
            backend.move([.pull])
            let running = Task { try await store.sync() }
            await clock.waitForSleepers()

            let suspending = Task { await store.suspend(within: .seconds(3), clock: clock) }
            await Self.advance(clock, seconds: 3)
            await suspending.value
            #expect(clock.now.offset == .seconds(3))
            #expect(!store.isSyncing)
            let stop = try await #require(throws: OfflineStoreError.self) { try await running.value }
            #expect(stop.code == .cancelled && stop.message.contains("suspended"), "\(stop.message)")
            #expect(try store.collection("todos").find("s1") == nil, "the cancelled page was not applied")

            store.resume()
            backend.move([])
            _ = try await store.sync()
            #expect(try store.collection("todos").find("s1")?["title"] == "from the server")
        }
    }

    @Test func cancellingTheSuspendingTaskReachesTheDeadlineAtOnce() async throws {
        try await Self.withDirectory { directory in
            let clock = ManualClock()
            let (store, backend) = try await Self.store(queued: 1, in: directory, clock: clock)
            defer { try? store.close() }
            backend.move([.push])
            let running = Task { try await store.sync() }
            await clock.waitForSleepers()

            let suspending = Task { await store.suspend(within: .seconds(60), clock: clock) }
            await clock.waitForSleepers(count: 2)              // the deadline is set
            suspending.cancel()
            await suspending.value
            #expect(clock.now.offset == .zero && !store.isSyncing)
            let stop = try await #require(throws: OfflineStoreError.self) { try await running.value }
            #expect(stop.code == .cancelled && stop.message.contains("deadline"), "\(stop.message)")
            store.resume()
        }
    }

    // MARK: The state

    @Test func aDeadlineCutsOnlyTheSuspensionItWasSetFor() {
        var state = SuspensionState()
        let first = state.suspend()
        let again = state.suspend()
        #expect(again == first, "suspending again keeps the suspension")
        let ran = Locked(0)
        let registered = state.onInterruption({ ran.withLock { $0 += 1 } }, id: state.makeID())
        #expect(registered)
        _ = state.resume()
        let late = state.interrupt(epoch: first)
        #expect(late.isEmpty && !state.interrupted, "a deadline firing after resume does nothing")

        let second = state.suspend()
        #expect(second != first)
        let stale = state.interrupt(epoch: first)
        #expect(stale.isEmpty && !state.interrupted, "the first suspension's deadline does not cut the second")
        let actions = state.interrupt(epoch: second)
        #expect(actions.count == 1 && state.interrupted)
        actions.forEach { $0() }
        #expect(ran.withLock { $0 } == 1)
        let afterDeadline = state.onInterruption({}, id: state.makeID())
        #expect(!afterDeadline, "after the deadline, a new request is cancelled at once")
        _ = state.resume()
        #expect(!state.interrupted && !state.suspended)
        let afterResume = state.onInterruption({}, id: state.makeID())
        #expect(afterResume)
    }

    @Test func aRemovedInterruptionDoesNotRun() {
        var state = SuspensionState()
        let epoch = state.suspend()
        let id = state.makeID()
        _ = state.onInterruption({ Issue.record("ran after removal") }, id: id)
        let removed = state.removeInterruption(id)
        let again = state.removeInterruption(id)
        #expect(removed != nil && again == nil)
        let actions = state.interrupt(epoch: epoch)
        #expect(actions.isEmpty)
    }
}
