import Foundation
import Testing
import OfflineStorePlatform
import OfflineStoreTestPlatform

/// Many processes on one store file while the process that holds the sync is killed with
/// SIGKILL, again and again: an immediate `offline-store` editor, a deferred editor (this
/// process, through the library), a loop of one-shot `sync`s, and a `sync --every 50ms`
/// service that is killed whenever it holds the sync lock and a seeded coin says so (the
/// first time in each round, always), then started again. The holder is found through the
/// platform layer (`FileLocking.holder(of:)`: the lock is held, and the holder's note names
/// the service), the same way on Linux and Darwin; a run that kills nothing fails. The
/// service's in-flight entries must be recovered by the next holder only, and nothing may
/// fail, be lost or be duplicated.
///
/// `RELIABILITY_MP_ROUNDS` sets the rounds (2 by default; `scripts/torture` runs 20).
@Suite("Many processes with kill -9 of the sync holder (real Kinto)", .serialized)
struct ManyProcessKillTests {
    static let edits = 8

    @Test(.liveServer) func killingTheSyncHolderLosesAndDuplicatesNothing() async throws {
        let rounds = TestEnvironment.number("RELIABILITY_MP_ROUNDS", default: 2)
        let seed = TestEnvironment.reliabilitySeed
        var random = ObjectStoreCrashTests.SeededGenerator(seed: seed)
        var tally = ReliabilityTally(scenario: "many processes, kill -9 of the sync holder")
        var failures: [String] = []
        for round in 0..<rounds {
            let chance = UInt64.random(in: 2...4, using: &random)     // kill 1 in `chance` sightings
            let roundSeed = random.next()
            try await CLIWorkspace.with { workspace in
                let shared = try await workspace.store("shared").initialise(deferred: false)
                let service = Service(workspace: workspace, path: shared.path)
                try await service.start()
                let killer = Task { try await service.killWhileHoldingTheLock(seed: roundSeed, chance: chance) }
                failures += try await withThrowingTaskGroup(of: [String].self) { group in
                    group.addTask { try await ManyProcessWorkload.editWithTheCLI(shared, editor: "cli", edits: Self.edits) }
                    group.addTask {
                        try await ManyProcessWorkload.editWithTheLibrary(shared.path, editor: "library", edits: Self.edits)
                    }
                    group.addTask { try await ManyProcessWorkload.syncRepeatedly(shared, times: 5) }
                    return try await group.reduce(into: []) { $0 += $1 }
                }.map { "round \(round): \($0)" }
                killer.cancel()
                let kills = try await killer.value
                #expect(kills > 0, "round \(round): the service was never seen holding the sync lock, so nothing was killed")
                tally.injected += kills
                try await service.stop()
                tally.runs += 1
                try await ManyProcessWorkload.check(workspace, shared, editors: ["cli", "library"], edits: Self.edits,
                                                    into: &tally)
            }
        }
        print(tally)
        #expect(failures.isEmpty, "\(failures.count) failed commands:\n\(failures.joined(separator: "\n"))")
        #expect(tally.isClean, "\(tally)")
    }

    /// The `sync --every` service, restarted after each kill.
    final class Service: @unchecked Sendable {
        // @unchecked: `process` is only touched by the test task and the killer task, one
        // at a time (the killer runs until cancelled, and `stop` awaits it first).
        let workspace: CLIWorkspace
        let path: String
        private var process: CLIProcess?

        init(workspace: CLIWorkspace, path: String) {
            self.workspace = workspace
            self.path = path
        }

        func start() async throws {
            let started = try workspace.start(["sync", "--every", "50ms", "--store", path])
            let notice = await started.stderr.first { $0.contains("syncing every") }
            try #require(notice != nil, "no start notice: \(started.stderr.lines)")
            process = started
        }

        func stop() async throws {
            process?.send(Signals.terminate)
            if let result = try await process?.finish() {
                #expect(result.status == 0 || result.status == 5, "\(result)")
            }
            process = nil
        }

        /// Watches the sync lock until cancelled; kills the service when it holds the lock
        /// and the seeded coin says so (always the first time), then starts it again.
        /// Returns the kills.
        func killWhileHoldingTheLock(seed: UInt64, chance: UInt64) async throws -> Int {
            var random = ObjectStoreCrashTests.SeededGenerator(seed: seed)
            var kills = 0
            let lockFile = path + ".sync-lock"
            while !Task.isCancelled {
                if let process, FileLocking.holder(of: lockFile) == process.processIdentifier {
                    if kills == 0 || random.next() % chance == 0 {
                        process.send(Signals.kill)
                        _ = try? await process.finish()
                        kills += 1
                        try await start()
                    } else {
                        // Let this run go: wait until it released the lock.
                        while FileLocking.holder(of: lockFile) == process.processIdentifier, !Task.isCancelled {
                            try? await Task.sleep(for: .milliseconds(1))
                        }
                    }
                }
                try? await Task.sleep(for: .milliseconds(1))   // polls the lock
            }
            return kills
        }
    }
}
