import Foundation
import OfflineStore
import OfflineStoreTesting
import Testing

/// The library's scheduled sync under a manual clock: backoff with jitter, reconnect,
/// pause/resume, and `notBefore` (SPEC §10).
@Suite(.timeLimit(.minutes(5))) struct AutoSyncTests {
    /// A deterministic jitter source that cycles through `values`.
    final class Sequence: Sendable {
        private let values: [Double]
        private let index = Locked(0)
        init(_ values: [Double]) { self.values = values }
        func next() -> Double { index.withLock { i in defer { i += 1 }; return values[i % values.count] } }
    }

    /// Runs `auto` in a task, sending each run to the returned stream.
    static func start(_ auto: AutoSync) -> (AsyncStream<AutoSync.Run>, Task<Void, Never>) {
        let (runs, continuation) = AsyncStream<AutoSync.Run>.makeStream()
        let task = Task {
            await auto.run(onRun: { run in continuation.yield(run); return .proceed })
            continuation.finish()
        }
        return (runs, task)
    }

    static let todos = [CollectionDescriptor("todos")]

    /// Deferred writes, time from `now`.
    static func configuration(now: ManualDate = ManualDate()) -> ObjectStore.Configuration {
        .deferred.with { $0.now = now.now }
    }

    @Test func failuresBackOffExponentiallyWithJitterThenTheIntervalReturns() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), configuration: Self.configuration(), collections: Self.todos) { store, backend in
            let clock = ManualClock()
            let jitter = Sequence([0, 0.5, 1, 1, 1])
            var configuration = AutoSync.Configuration(interval: .seconds(10))
            configuration.maximumBackoff = .seconds(60)
            configuration.clock = clock
            configuration.random = { jitter.next() }
            let auto = AutoSync(store: store, configuration: configuration)
            try await store.collection("todos").create(["id": "a"])
            backend.inject(.offline, times: 1_000)
            let (runs, task) = Self.start(auto)
            var iterator = runs.makeAsyncIterator()
            var delays: [Duration] = []
            for _ in 0..<4 {
                let run = try #require(await iterator.next())
                #expect(run.failure != nil)
                delays.append(run.nextDelay)
                await clock.waitForSleepers()
                clock.advance(by: run.nextDelay)
            }
            // interval·2ⁿ capped at 60 s, times (0.5 + 0.5·jitter): 20·0.5, 40·0.75, 60·1, 60·1.
            #expect(delays == [.seconds(10), .seconds(30), .seconds(60), .seconds(60)])
            #expect(auto.consecutiveFailures == 4)
            backend.clearFaults()
            let recovered = try #require(await iterator.next())
            #expect(recovered.failure == nil && recovered.report?.pushed == 1)
            #expect(recovered.nextDelay == .seconds(10))
            #expect(clock.now.offset == .seconds(160))
            auto.stop()
            await task.value
        }
    }

    @Test func aReconnectRunsAtOnceAndAPauseHoldsRuns() async throws {
        try await withTemporaryStore(server: InMemoryBackend(), configuration: Self.configuration(), collections: Self.todos) { store, backend in
            let clock = ManualClock()
            var configuration = AutoSync.Configuration(interval: .seconds(3600))
            configuration.clock = clock
            let auto = AutoSync(store: store, configuration: configuration)
            let (runs, task) = Self.start(auto)
            var iterator = runs.makeAsyncIterator()
            _ = await iterator.next()
            await clock.waitForSleepers()
            try await store.collection("todos").create(["id": "a"])
            auto.networkAvailable()                       // no clock advance needed
            let second = try #require(await iterator.next())
            #expect(second.number == 2 && second.report?.pushed == 1)
            #expect(clock.now.offset == .zero)

            await clock.waitForSleepers()
            auto.pause()
            clock.advance(by: .seconds(3600))             // the wait ends, but paused: no run
            #expect(auto.isPaused)
            try await store.collection("todos").create(["id": "b"])
            #expect(backend.serverRecord(collection: "todos", id: "b") == nil)
            auto.resume()
            let third = try #require(await iterator.next())
            #expect(third.number == 3 && third.report?.pushed == 1)
            auto.stop()
            await task.value
        }
    }

    @Test func entriesWaitingForTheirRetryDelayAreLeftForALaterRun() async throws {
        let now = ManualDate()
        try await withTemporaryStore(server: InMemoryBackend(), configuration: Self.configuration(now: now), collections: Self.todos) { store, backend in
            try await store.collection("todos").create(["id": "a"])
            backend.inject(.status(503, retryAfter: .seconds(60)).only(.push))
            await expectStoreError(.server) { try await store.flush() }
            let entry = try #require(try store.queueEntries().first)
            #expect(entry.notBefore == now.date.addingTimeInterval(60))

            let auto = AutoSync(store: store, configuration: .init(interval: .seconds(1)))
            let pushesBefore = backend.pushCallCount
            await auto.run(onRun: { _ in .stop })
            #expect(backend.pushCallCount == pushesBefore)      // not yet
            #expect(try store.queueCount() == 1)

            now.advance(by: .seconds(61))
            await auto.run(onRun: { _ in .stop })
            #expect(try store.queueCount() == 0)
            #expect(backend.serverRecord(collection: "todos", id: "a") != nil)
        }
    }
}
