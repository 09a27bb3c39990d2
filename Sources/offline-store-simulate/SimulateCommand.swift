import ArgumentParser
import Foundation
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

    mutating func validate() throws {
        guard (seed == nil) != (seeds == nil) else { throw ValidationError("give either --seed S or --seeds N") }
        if let seeds, seeds < 1 { throw ValidationError("--seeds must be at least 1") }
        guard clients >= 1, steps >= 0 else { throw ValidationError("--clients must be at least 1 and --steps at least 0") }
        if let lateWindow, lateWindow < 0 { throw ValidationError("--late-window must not be negative") }
    }

    func run() throws {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else {
            throw ValidationError("the simulator needs macOS 15 or later: it steers every client task through a task executor")
        }
        var configuration = Simulation.Configuration()
        configuration.clients = clients
        configuration.steps = steps
        if let lateWindow { configuration.store.lateDeliveryWindow = .seconds(lateWindow) }
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
        var total = SimulationResult.Statistics()
        var failed: [UInt64] = []
        for seed in first..<(first + UInt64(seeds ?? 0)) {
            let result = simulation.runBlocking(seed: seed)
            total.add(result.statistics)
            if !result.passed {
                failed.append(seed)
                for line in result.shortTrace() { print(line) }
            }
        }
        let count = seeds ?? 0
        print(Self.summary(total, runs: count))
        print("\(count) seeds from \(first): \(count - failed.count) passed, \(failed.count) failed"
              + (failed.isEmpty ? "" : " (\(failed.map(String.init).joined(separator: " ")))"))
        if !failed.isEmpty { throw ExitCode(1) }
    }

    static func summary(_ s: SimulationResult.Statistics, runs: Int) -> String {
        "\(runs) run(s): \(s.steps) steps, \(s.edits) edits, \(s.requests) requests, \(s.lateDeliveries) late deliveries, "
            + "\(s.duplicates) duplicated, \(s.drops) lost, \(s.timeouts) timeouts, \(s.kills) kills, "
            + "\(s.resolutions) resolutions; late creates after the client's own delete: \(s.lateCreatesAfterOwnDelete), "
            + "after another client's delete: \(s.lateCreatesAfterOthersDelete)"
    }
}
