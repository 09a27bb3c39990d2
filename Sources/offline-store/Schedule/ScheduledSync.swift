import Foundation
import OfflineStore

/// `sync --every DURATION [--times N]`: runs sync on a schedule, one JSON report line per run.
///
/// A stop request (SIGINT/SIGTERM) never interrupts a run: the current sync finishes,
/// its line is printed, and the job ends with status 0. Between runs the job waits on an
/// injected clock, waking early for a stop request.
struct ScheduledSync {
    var schedule: SyncSchedule
    /// How many runs before the job ends; nil: until stopped.
    var times: Int?
    var clock: any Clock<Duration> = ContinuousClock()
    /// The source of the lines' timestamps.
    var now: @Sendable () -> Date = { Date() }
    /// The jitter source, a number in [0, 1].
    var random: @Sendable () -> Double = { Double.random(in: 0...1) }
    var stop: StopSignal

    /// Runs the job; returns the exit status: 0 when stopped by a signal, else the last run's.
    mutating func run(on store: ObjectStore) async -> Int32 {
        var run = 0
        while true {
            run += 1
            let outcome = await SyncRun.perform(.sync, on: store)
            let isLast = times.map { run >= $0 } ?? false
            let delay = outcome.failure == nil
                ? schedule.succeeded()
                : schedule.failed(retryAfter: outcome.retryAfter, jitter: random())
            var line = outcome.json
            line["run"] = .int(Int64(run))
            line["at"] = Shape.timestamp(now())   // when the run ended
            line["exitCode"] = .int(Int64(outcome.exitCode))
            line["nextRunInMs"] = isLast ? .null : .int(Int64((delay.seconds * 1000).rounded()))
            Output.line(line)
            if stop.isRequested { return ExitStatus.success }
            if isLast { return outcome.exitCode }
            if await waitOrStop(delay) { return ExitStatus.success }
        }
    }

    /// Waits `delay` on the clock; returns true when a stop request came first.
    private func waitOrStop(_ delay: Duration) async -> Bool {
        let (clock, stop) = (clock, stop)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await clock.sleep(for: delay) }
            group.addTask { await stop.wait() }
            await group.next()
            group.cancelAll()
        }
        return stop.isRequested
    }
}
