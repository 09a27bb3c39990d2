import OfflineStoreTesting
import Testing

/// `ManualClock` wakes sleepers when advanced, never by real time.
@Suite struct ManualClockTests {
    @Test func advancingResumesSleepersWhoseDeadlineIsReached() async throws {
        let clock = ManualClock()
        let short = Task { try await clock.sleep(for: .seconds(1)) }
        let long = Task { try await clock.sleep(for: .seconds(10)) }
        await clock.waitForSleepers(count: 2)
        clock.advance(by: .seconds(1))
        try await short.value
        #expect(clock.sleeperCount == 1)
        #expect(clock.now == ManualClock.Instant(offset: .seconds(1)))
        clock.advance(by: .seconds(9))
        try await long.value
        #expect(clock.sleeperCount == 0)
    }

    @Test func aReachedDeadlineReturnsAtOnce() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(5))
        try await clock.sleep(until: ManualClock.Instant(offset: .seconds(2)), tolerance: nil)
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellingASleeperThrowsCancellationError() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        await clock.waitForSleepers()
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }
}
