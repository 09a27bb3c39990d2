import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Many processes on one store file while the process that holds the sync is killed with
/// SIGKILL, again and again: an immediate `offline-store` editor, a deferred editor (this
/// process, through the library), a loop of one-shot `sync`s, and a `sync --every 50ms`
/// service that is killed whenever it holds the sync lock (read from `/proc/locks`) and a
/// seeded coin says so, then started again. Its in-flight entries must be recovered by the
/// next holder only, and nothing may fail, be lost or be duplicated.
///
/// `RELIABILITY_MP_ROUNDS` sets the rounds (2 by default; `scripts/torture` runs 20).
@Suite("Many processes with kill -9 of the sync holder (real Kinto)", .serialized)
struct ManyProcessKillTests {
    static let edits = 8

    @Test(.liveServer) func killingTheSyncHolderLosesAndDuplicatesNothing() async throws {
        let environment = ProcessInfo.processInfo.environment
        let rounds = environment["RELIABILITY_MP_ROUNDS"].flatMap(Int.init) ?? 2
        let seed = environment["RELIABILITY_SEED"].flatMap(UInt64.init) ?? 20_250_901
        var random = ObjectStoreCrashTests.SeededGenerator(state: seed)
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
                tally.injected += try await killer.value
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
            process?.send(SIGTERM)
            if let result = try await process?.finish() {
                #expect(result.status == 0 || result.status == 5, "\(result)")
            }
            process = nil
        }

        /// Watches `/proc/locks` until cancelled; kills the service when it holds the sync
        /// lock and the seeded coin says so, then starts it again. Returns the kills.
        func killWhileHoldingTheLock(seed: UInt64, chance: UInt64) async throws -> Int {
            var random = ObjectStoreCrashTests.SeededGenerator(state: seed)
            var kills = 0
            while !Task.isCancelled {
                if let process, let inode = Self.inode(of: path + ".sync-lock"),
                   Self.lockHolders(inode: inode).contains(process.processIdentifier) {
                    if random.next() % chance == 0 {
                        process.send(SIGKILL)
                        _ = try? await process.finish()
                        kills += 1
                        try await start()
                    } else {
                        // Let this run go: wait until it released the lock.
                        while Self.lockHolders(inode: inode).contains(process.processIdentifier), !Task.isCancelled {
                            try? await Task.sleep(for: .milliseconds(1))
                        }
                    }
                }
                try? await Task.sleep(for: .milliseconds(1))   // polls /proc/locks
            }
            return kills
        }

        static func inode(of path: String) -> UInt64? {
            var info = stat()
            return stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
        }

        /// The pids holding (not waiting for) a flock on the inode, from `/proc/locks`.
        static func lockHolders(inode: UInt64) -> Set<Int32> {
            guard let text = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return [] }
            var pids = Set<Int32>()
            for line in text.split(separator: "\n") where !line.contains("->") {
                let fields = line.split(separator: " ")
                guard fields.count >= 6, fields[1] == "FLOCK",
                      fields[5].split(separator: ":").last.flatMap({ UInt64($0) }) == inode,
                      let pid = Int32(fields[4]) else { continue }
                pids.insert(pid)
            }
            return pids
        }
    }
}
