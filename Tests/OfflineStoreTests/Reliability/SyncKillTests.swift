import Foundation
import OfflineStore
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// No acknowledged edit is lost, and nothing lands twice on the server, when a process
/// that edits and syncs with a real Kinto is killed with SIGKILL — mostly inside flushes
/// (SPEC §5, §11).
///
/// `crash-writer --server` runs random edits, flushes, refreshes and syncs, announcing
/// every edit (`intent`/`ack`) and every HTTP request (`wire send`/`wire recv`). Each run
/// is killed at a seeded point counted in those lines — right after a request left, right
/// after its answer arrived (the server applied it, the store has not recorded it), after
/// an acknowledgement, or at the start of a step — plus a seeded jitter of up to 2 ms.
/// Then the store is reopened and checked (`WorkloadCheck`); every fifth run, and the
/// last, it is synced to quiescence directly and compared with the server.
///
/// `RELIABILITY_KILLS` sets the number of kill points (50 by default; `scripts/torture`
/// runs 1,000) and `RELIABILITY_SEED` the seed.
@Suite("Sync workload across kill -9 (real Kinto)", .serialized)
struct SyncKillTests {
    /// A kind of line to kill on, and how many of them to let pass first.
    struct KillPoint: CustomStringConvertible {
        var prefix: String
        var count: Int
        var jitter: UInt32
        var description: String { "on '\(prefix)' #\(count) + \(jitter) µs" }

        static func random(using random: inout some RandomNumberGenerator) -> KillPoint {
            let prefixes = ["wire send", "wire recv", "wire recv", "ack", "step"]
            let jitter = Bool.random(using: &random) ? 0 : UInt32.random(in: 0..<2_000, using: &random)
            return KillPoint(prefix: prefixes.randomElement(using: &random)!, count: Int.random(in: 1...10, using: &random),
                             jitter: jitter)
        }
    }

    @Test(.liveServer) func acknowledgedEditsSurviveKillsInsideFlushes() async throws {
        let writer = try #require(ChildProcess.built("crash-writer"), "crash-writer not built: run `swift build --build-tests`")
        let environment = ProcessInfo.processInfo.environment
        let kills = environment["RELIABILITY_KILLS"].flatMap(Int.init) ?? 50
        let seed = environment["RELIABILITY_SEED"].flatMap(UInt64.init) ?? 20_250_901
        let check = WorkloadCheck(server: try KintoServer.workloadURL(), bucket: KintoServer.uniqueName("kill"))
        var random = ObjectStoreCrashTests.SeededGenerator(state: seed)
        var tally = ReliabilityTally(scenario: "kill -9 during edits and sync")

        try await withTemporaryDirectory { directory in
            let storePath = directory.path("kill.sqlite")
            var model: ObjectStoreCrashTests.Model = [:]
            var firstValue: Int64 = 1
            for round in 0..<kills {
                let point = KillPoint.random(using: &random)
                let context = "run \(round) (seed \(seed), kill \(point))"
                let seen = Locked(0)
                let child = ChildProcess(executable: writer, arguments: [
                    storePath, String(random.next()), String(firstValue),
                    "--server", check.server.absoluteString, "--bucket", check.bucket, "--timeout", "10",
                ])
                let outcome = try await child.run(stderrPath: directory.path("stderr-\(round).txt")) { line in
                    guard line.hasPrefix(point.prefix) else { return .goOn }
                    let n = seen.withLock { $0 += 1; return $0 }
                    return n == point.count ? .kill(afterMicroseconds: point.jitter) : .goOn
                }
                try #require(outcome.killed, "\(context): crash-writer ended by itself (\(outcome.exitStatus)): \(outcome.stderr)")
                #expect(outcome.exitStatus == SIGKILL, "\(context): \(outcome.stderr)")
                let run = try WorkloadTranscript(outcome.lines)
                tally.runs += 1
                tally.injected += 1
                model = try check.checkLocal(storePath: storePath, model: model, run: run, tally: &tally, context: context)
                if round % 5 == 4 || round == kills - 1 {
                    try await check.quiesceAndCompare(storePath: storePath, model: model, tally: &tally, context: context)
                }
                firstValue += Int64(run.intents.count)
            }
        }
        print(tally)
        #expect(tally.isClean, "\(tally)")
        #expect(tally.editsChecked >= kills, "too few acknowledged edits to prove anything: \(tally)")
    }
}
