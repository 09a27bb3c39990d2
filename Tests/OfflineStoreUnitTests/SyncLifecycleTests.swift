import Foundation
@testable import OfflineStore
import OfflineStoreTesting
import Testing

/// The budget rule, time-budgeted syncs on an injected clock, and suspension: a running
/// sync stops at its next safe point and gives the lock back; runs wait for resume.
@Suite("Sync budget and suspension", .timeLimit(.minutes(5)))
struct SyncLifecycleTests {
    // MARK: The rule

    @Test(arguments: [
        // (budget s, elapsed s, longest step s, go on?)  reserve: min(budget / 10, 2 s)
        (25.0, 0.0, 0.0, true),      // the first step always starts within a budget
        (25.0, 10.0, 10.0, true),    // 10 + 10 + 2 < 25
        (25.0, 20.0, 10.0, false),   // 20 + 10 + 2 ≥ 25
        (25.0, 22.0, 0.5, true),     // 22 + 0.5 + 2 < 25
        (25.0, 23.0, 0.0, false),    // inside the reserve
        (1.0, 0.5, 0.3, true),       // reserve 0.1 s
        (1.0, 0.7, 0.3, false),
        (0.001, 0.0, 0.0, true),
        (0.001, 0.001, 0.0, false),
    ])
    func theRuleTakesAStepOnlyIfItEndsBeforeTheBudget(_ row: (Double, Double, Double, Bool)) {
        let (budget, elapsed, longest, goOn) = row
        let rule = SyncBudget(.milliseconds(Int64(budget * 1000)))
        #expect(rule.decide(elapsed: .milliseconds(Int64(elapsed * 1000)), longestStep: .milliseconds(Int64(longest * 1000)))
                == (goOn ? .goOn : .stop), "\(row)")
    }

    @Test func theReserveIsATenthOfTheBudgetAtMostTwoSeconds() {
        #expect(SyncBudget(.seconds(10)).reserve == .seconds(1))
        #expect(SyncBudget(.seconds(300)).reserve == .seconds(2))
        #expect(SyncBudget(.milliseconds(50)).reserve == .milliseconds(5))
    }

    // MARK: Budgeted syncs

    /// A store with `count` queued creates on an in-memory server that takes one per push.
    static func store(queued count: Int, path: String? = nil) async throws -> (ObjectStore, InMemoryBackend) {
        let backend = InMemoryBackend(maxBatchSize: 1)
        var configuration = ObjectStore.Configuration()
        configuration.writeMode = .deferred
        let store = try path.map { try ObjectStore(path: $0, configuration: configuration, backend: backend) }
            ?? ObjectStore.inMemory(configuration: configuration, backend: backend)
        try store.register(CollectionDescriptor("todos"))
        for n in 0..<count { try await store.collection("todos").create(["id": .string("t\(n)"), "n": .int(Int64(n))]) }
        return (store, backend)
    }

    @Test func aBudgetedSyncStopsBetweenBatchesBeforeItsBudgetEnds() async throws {
        let (store, backend) = try await Self.store(queued: 5)
        defer { try? store.close() }
        let clock = ManualClock()
        backend.onPush = { _ in clock.advance(by: .seconds(10)) }   // every push takes 10 s
        let first = try await store.sync(within: .seconds(25), clock: clock)
        #expect(first.stoppedAtBudget)
        #expect(first.report.pushed == 2, "after 20 s a third 10 s push would end past 25 s less the reserve")
        #expect(first.report.pending == 3)
        #expect(clock.now.offset == .seconds(20), "it stopped before the budget ended")
        #expect(backend.pushCallCount == 2)

        let rest = try await store.sync(within: .seconds(100), clock: clock)
        #expect(!rest.stoppedAtBudget)
        #expect(rest.report.pushed == 3 && rest.report.pending == 0)
    }

    @Test func aBudgetedSyncThatFitsIsAPlainSync() async throws {
        let (store, backend) = try await Self.store(queued: 3)
        defer { try? store.close() }
        let clock = ManualClock()
        backend.onPush = { _ in clock.advance(by: .seconds(1)) }
        let result = try await store.sync(within: .seconds(60), clock: clock)
        #expect(!result.stoppedAtBudget)
        #expect(result.report.pushed == 3)
        #expect(try store.lastSync() != nil, "a complete sync records its time")
    }

    @Test func aBudgetedSyncGivesUpWaitingForAnotherRunWhenItsBudgetIsSpent() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("budget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        let (holder, holderBackend) = try await Self.store(queued: 1, path: path)
        defer { try? holder.close() }
        let gate = Gate()
        holderBackend.onPush = { _ in await gate.enterAndWait() }
        let holding = Task { try await holder.sync() }
        await gate.waitUntilEntered()                      // the holder's push is in flight: it holds the lock

        let (waiter, waiterBackend) = try await Self.store(queued: 0, path: path)
        defer { try? waiter.close() }
        let clock = ManualClock()
        let waiting = Task { try await waiter.sync(within: .seconds(5), clock: clock) }
        await clock.waitForSleepers()                      // the budget's watchdog
        clock.advance(by: .seconds(5))
        let result = try await waiting.value
        #expect(result.stoppedAtBudget)
        #expect(result.report.pushed == 0 && waiterBackend.pushCallCount == 0)

        gate.open()
        #expect(try await holding.value.pushed == 1)
    }

    // MARK: Suspension

    @Test func suspendingStopsTheRunningSyncAtItsNextSafePointAndHoldsNewRunsUntilResume() async throws {
        let (store, backend) = try await Self.store(queued: 3)
        defer { try? store.close() }
        let gate = Gate()
        backend.onPush = { _ in await gate.enterAndWait() }
        let running = Task { try await store.sync() }
        await gate.waitUntilEntered()                      // the first batch is on the wire
        #expect(store.isSyncing)

        // A deadline on a clock that never moves: the answer arrives before it, whenever that is.
        let suspending = Task { await store.suspend(within: .seconds(5), clock: ManualClock()) }
        while !store.isSuspended { await Task.yield() }
        gate.open()                                        // its answer arrives and is settled
        await suspending.value
        #expect(!store.isSyncing, "suspend() returns once the sync lock is released")
        do {
            _ = try await running.value
            Issue.record("the sync ran on through a suspension")
        } catch let stop as OfflineStoreError {
            #expect(stop.code == .cancelled)
            #expect(stop.message.contains("suspended"), "\(stop.message)")
            #expect(stop.report?.pushed == 1, "the batch on the wire was settled, nothing more was sent")
            #expect(stop.report?.pending == 2)
        }
        #expect(backend.pushCallCount == 1)

        // A run started while suspended waits; after resume it takes the lock and finishes.
        let events = store.syncEvents()
        let later = Task { try await store.sync() }
        for await event in events { if case .started(.sync) = event { break } }
        #expect(store.isSuspended && !store.isSyncing && backend.pushCallCount == 1)
        store.resume()
        #expect(!store.isSuspended)
        let report = try await later.value
        #expect(report.pushed == 2 && report.pending == 0)
    }

    @Test func suspendingAnIdleStoreReturnsAtOnce() async throws {
        let (store, _) = try await Self.store(queued: 0)
        defer { try? store.close() }
        await store.suspend()
        #expect(store.isSuspended)
        store.resume()
        _ = try await store.sync()
    }
}

/// A one-shot gate: tasks that enter wait until it opens; the test waits for the first to enter.
final class Gate: Sendable {
    private struct State {
        var open = false
        var entered = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        var enteredWatchers: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Locked(State())

    func enterAndWait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (proceed, watchers) = state.withLock { s -> (Bool, [CheckedContinuation<Void, Never>]) in
                s.entered = true
                defer { s.enteredWatchers.removeAll() }
                if !s.open { s.waiting.append(continuation) }
                return (s.open, s.enteredWatchers)
            }
            for watcher in watchers { watcher.resume() }
            if proceed { continuation.resume() }
        }
    }

    func waitUntilEntered() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if !s.entered { s.enteredWatchers.append(continuation) }
                return s.entered
            }
            if now { continuation.resume() }
        }
    }

    func open() {
        let waiting = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.open = true
            defer { s.waiting.removeAll() }
            return s.waiting
        }
        for waiter in waiting { waiter.resume() }
    }
}
