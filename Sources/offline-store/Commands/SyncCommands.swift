import ArgumentParser
import OfflineStore
import OfflineStoreCommandLine

/// `flush`, `refresh` and `sync` print one report,
/// `{"pushed","pulled","conflicts","failed","pending","conflictsDetected","conflictsResolved","error"}`,
/// and exit 4 when conflicts or failed entries remain.
extension OfflineStoreCommand {
    static let reportDiscussion = """
        Prints {"pushed","pulled","conflicts","failed","pending","conflictsDetected",\
        "conflictsResolved","error"}: conflicts, failed and pending count what is left in the \
        whole store; error is null unless the run stopped early. A live progress line goes to \
        stderr when it is a terminal. Exit 4 when conflicts or failed entries remain, 5 when the \
        server cannot be reached, 6 when it refuses the credentials.
        """

    struct Flush: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send the queued edits to the server.", discussion: OfflineStoreCommand.reportDiscussion)

        @OptionGroup var global: GlobalOptions

        mutating func execute() async throws {
            try await SyncInvocation.once(.flush, global)
        }
    }

    struct Refresh: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pull the server's changes.", discussion: OfflineStoreCommand.reportDiscussion)

        @OptionGroup var global: GlobalOptions
        @Flag(help: "Read every collection in full instead of the changes since the last refresh.")
        var full = false

        mutating func execute() async throws {
            try await SyncInvocation.once(full ? .fullRefresh : .refresh, global)
        }
    }

    struct Sync: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Flush, then refresh; or, with --every, run sync on a schedule.",
            discussion: OfflineStoreCommand.reportDiscussion + """


                With --every DURATION (200ms, 30s, 5m, 1h) sync runs at once, then every DURATION \
                after a run that reached the server; after failures it backs off (DURATION × 2^n, \
                capped at max(DURATION, 15m), with jitter, never sooner than the server asked). One \
                report line per run, with "run", "at", "exitCode" and "nextRunInMs" added. It stops \
                after --times runs (exit status: the last run's) or on SIGINT/SIGTERM: the current \
                run finishes and nothing is lost, then exit 0 (a second signal ends it at once).

                With --budget DURATION each sync stops at a safe point before DURATION has passed \
                (waiting for another process's sync included); what was done stays done, the rest \
                waits for the next run. Its line gets "stoppedAtBudget" (true or false).
                """)

        @OptionGroup var global: GlobalOptions

        @Option(help: ArgumentHelp("Run sync on a schedule, every DURATION (e.g. 200ms, 30s, 5m, 1h).",
                                   valueName: "duration"),
                transform: IntervalArgument.parse)
        var every: Duration?

        @Option(help: "With --every: stop after this many runs (default: until SIGINT/SIGTERM).")
        var times: Int?

        @Option(help: ArgumentHelp("Stop each sync at a safe point before DURATION has passed (e.g. 25s).",
                                   valueName: "duration"),
                transform: IntervalArgument.parse)
        var budget: Duration?

        func validate() throws {
            if times != nil, every == nil { throw ValidationError("--times needs --every") }
            if let times, times < 1 { throw ValidationError("--times must be at least 1") }
        }

        mutating func execute() async throws {
            guard let every else { return try await SyncInvocation.once(.sync, global, budget: budget) }
            let (times, budget) = (self.times, self.budget)
            let status = try await StoreSession.with(global, server: .required) { session in
                let stop = StopSignal()
                stop.installHandlers()
                Output.note("syncing every \(IntervalArgument.describe(every))\(times.map { ", \($0) time(s)" } ?? "")"
                    + "\(budget.map { ", each within \(IntervalArgument.describe($0))" } ?? ""); "
                    + "SIGINT or SIGTERM stops after the current run")
                let job = ScheduledSync(schedule: SyncSchedule(interval: every), times: times, budget: budget, stop: stop)
                return await job.run(on: session.store)
            }
            if status != ExitStatus.success { throw ExitCode(status) }
        }
    }
}
