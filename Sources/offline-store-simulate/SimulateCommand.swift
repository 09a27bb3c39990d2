import ArgumentParser
import Foundation
import OfflineStore
import OfflineStoreTesting

/// `offline-store-simulate`: runs the deterministic simulation (Docs/Reliability.md).
@main
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "offline-store-simulate",
        abstract: "Runs seeded simulations of several clients syncing through a faulty network.",
        discussion: """
            --seed S replays one run and prints its whole trace (the same bytes every time).
            --seeds N runs seeds first…first+N-1 and prints a short trace of every failing one.
            Exit status: 0 when every run kept its promises, 1 otherwise.
            """)

    @Option(help: "Replay this seed and print its trace.")
    var seed: UInt64?

    @Option(help: "Run this many seeds.")
    var seeds: Int?

    @Option(help: "The first seed of --seeds.")
    var first: UInt64 = 1

    @Option(help: "Clients per run.")
    var clients = Simulation.Configuration().clients

    @Option(help: "Scheduler steps per run before the network heals.")
    var steps = Simulation.Configuration().steps

    @Option(help: ArgumentHelp("How long the stores watch a lost create for a late delivery, in seconds; 0 turns the recognition off.",
                               valueName: "seconds"))
    var lateWindow: Int64?

    @Option(help: "How many seeds of --seeds run at once, each on a thread of its own (default: the processors).")
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    @Flag(help: "Leave sync scopes and the server's own writer out (the model before scopes).")
    var noScopes = false

    @Flag(help: "Follow the server's next page after a page's last timestamp, as before KintoPageBoundary (a change sharing it is skipped).")
    var noOverlap = false

    mutating func validate() throws {
        guard (seed == nil) != (seeds == nil) else { throw ValidationError("give either --seed S or --seeds N") }
        if let seeds, seeds < 1 { throw ValidationError("--seeds must be at least 1") }
        guard clients >= 1, steps >= 0 else { throw ValidationError("--clients must be at least 1 and --steps at least 0") }
        if let lateWindow, lateWindow < 0 { throw ValidationError("--late-window must not be negative") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else {
            throw ValidationError("the simulator needs macOS 15 or later: it steers every client task through a task executor")
        }
        var configuration = Simulation.Configuration()
        configuration.clients = clients
        configuration.steps = steps
        if let lateWindow { configuration.store.lateDeliveryWindow = .seconds(lateWindow) }
        if noOverlap { configuration.overlapsPageBoundaries = false }
        if noScopes {
            configuration.scopes = [nil]
            configuration.scopeChoices = []
            configuration.serverWriterWeight = 0
        }
        let simulation = Simulation(configuration: configuration)
        if let seed {
            let result = simulation.runBlocking(seed: seed)
            for line in result.trace { print(line) }
            print(Self.summary(result.statistics, runs: 1))
            for violation in result.violations { print("! \(violation.message)") }
            print(result.passed ? "seed \(seed): passed" : "seed \(seed): FAILED")
            if !result.passed { throw ExitCode(1) }
            return
        }
        let count = seeds ?? 0
        let outcomes = Self.runSeeds(simulation, first: first, count: count, jobs: jobs)
        var total = SimulationResult.Statistics()
        var failed: [UInt64] = []
        for (offset, outcome) in outcomes.enumerated() {
            total.add(outcome.statistics)
            guard let lines = outcome.failure else { continue }
            failed.append(first + UInt64(offset))
            for line in lines { print(line) }
        }
        print(Self.summary(total, runs: count))
        print("\(count) seeds from \(first): \(count - failed.count) passed, \(failed.count) failed"
              + (failed.isEmpty ? "" : " (\(failed.map(String.init).joined(separator: " ")))"))
        if !failed.isEmpty { throw ExitCode(1) }
    }

    /// Runs seeds first…first+count-1 on `jobs` threads at once (each run is independent:
    /// its own executor, server, network and store files) and returns, in seed order, each
    /// run's statistics and, for a failing one, its short trace. The output does not depend on
    /// `jobs`.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    static func runSeeds(_ simulation: Simulation, first: UInt64, count: Int,
                         jobs: Int) -> [(statistics: SimulationResult.Statistics, failure: [String]?)] {
        let results = Locked([(statistics: SimulationResult.Statistics, failure: [String]?)?](repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(count, 1))) { worker in
            for index in stride(from: worker, to: count, by: jobs) {
                let result = simulation.runBlocking(seed: first + UInt64(index))
                let outcome = (statistics: result.statistics, failure: result.passed ? nil : result.shortTrace())
                results.withLock { $0[index] = outcome }
            }
        }
        return results.withLock { $0.map { $0 ?? (SimulationResult.Statistics(), ["a seed did not run"]) } }
    }

    static func summary(_ s: SimulationResult.Statistics, runs: Int) -> String {
        "\(runs) run(s): \(s.steps) steps, \(s.edits) edits, \(s.requests) requests, \(s.lateDeliveries) late deliveries, "
            + "\(s.duplicates) duplicated, \(s.drops) lost, \(s.timeouts) timeouts, \(s.kills) kills, "
            + "\(s.resolutions) resolutions; late creates after the client's own delete: \(s.lateCreatesAfterOwnDelete), "
            + "after another client's delete: \(s.lateCreatesAfterOthersDelete)"
    }
}
