import Foundation
import OfflineStore
import OfflineStoreCommandLine

/// `sync --every DURATION [--times N] [--budget DURATION]`: runs sync on the library's
/// ``AutoSync`` schedule, one JSON report line per run; with a budget, each run stops at a
/// safe point before it ends (``ObjectStore/sync(within:clock:)``).
///
/// A stop request (SIGINT/SIGTERM) never interrupts a run: the current sync finishes
/// (the first run happens even when the request came before it began), its line is
/// printed, and the job ends with status 0. Between runs the job waits on an
/// injected clock, waking early for a stop request. Entries whose retry delay has not
/// passed wait for a later run (AutoSync honours `not_before`).
struct ScheduledSync {
    var schedule: SyncSchedule
    /// How many runs before the job ends; nil: until stopped.
    var times: Int?
    /// The longest one run may take; nil: no limit.
    var budget: Duration?
    var clock: any Clock<Duration> = ContinuousClock()
    /// The source of the lines' timestamps.
    var now: @Sendable () -> Date = { Date() }
    /// The jitter source, a number in [0, 1].
    var random: @Sendable () -> Double = { Double.random(in: 0...1) }
    var stop: StopSignal

    /// Runs the job; returns the exit status: 0 when stopped by a signal, else the last run's.
    func run(on store: ObjectStore) async -> Int32 {
        var configuration = AutoSync.Configuration(interval: schedule.interval)
        configuration.maximumBackoff = schedule.maximumBackoff
        configuration.clock = clock
        configuration.random = random
        let auto = AutoSync(store: store, configuration: configuration)
        let (stop, times, now, budget) = (stop, times, now, budget)
        let stoppedAtBudget = Locked<Bool?>(nil)
        // The first run always happens ("sync at once"): a stop request that arrives before
        // it begins takes effect after it, like one during any run.
        let (began, beginning) = AsyncStream<Void>.makeStream()
        let watcher = Task {
            await stop.wait()
            for await _ in began { break }
            auto.stop()
        }
        defer { watcher.cancel(); beginning.finish() }
        let status = Locked<Int32>(ExitStatus.success)
        await auto.run(action: { store in
            beginning.yield()
            let progress = ProgressLine.start(SyncInvocation.Kind.sync.rawValue, store: store)
            do {
                let report: SyncReport
                if let budget {
                    let result = try await store.sync(within: budget)
                    stoppedAtBudget.withLock { $0 = result.stoppedAtBudget }
                    report = result.report
                } else {
                    report = try await store.sync()
                }
                await progress?.finish()
                return report
            } catch {
                await progress?.finish()
                throw error
            }
        }, onRun: { run in
            var outcome = SyncInvocation.Outcome(run, store: store)
            if budget != nil { outcome.stoppedAtBudget = stoppedAtBudget.withLock { $0 ?? false } }
            let isLast = times.map { run.number >= $0 } ?? false
            var line = outcome.json
            line["run"] = .int(Int64(run.number))
            line["at"] = Shape.timestamp(now())   // when the run ended
            line["exitCode"] = .int(Int64(outcome.exitCode))
            line["nextRunInMs"] = isLast ? .null : .int(Int64((run.nextDelay.seconds * 1000).rounded()))
            Output.line(line)
            if stop.isRequested { return .stop }
            if isLast {
                status.withLock { $0 = outcome.exitCode }
                return .stop
            }
            return .proceed
        })
        return status.withLock { $0 }
    }
}

extension SyncInvocation.Outcome {
    /// The outcome of one scheduled run.
    init(_ run: AutoSync.Run, store: ObjectStore) {
        let failure = run.failure.map(CLIError.describe)
        self.init(report: run.report ?? (try? SyncInvocation.leftCounts(store)) ?? SyncReport(), failure: failure,
                  retryAfter: run.retryAfter)
    }
}
