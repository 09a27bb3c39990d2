import Foundation
import OfflineStore
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `SyncKillTests` on the REST backend: `crash-writer --backend rest` edits and syncs with
/// the real Rails test app (server-assigned ids, `Idempotency-Key` replay) and is killed
/// with SIGKILL at seeded points (`SyncKillTests.KillPoint`): right after a request left,
/// right after its answer arrived (Rails applied it, the store has not recorded it), after
/// an acknowledgement, or at a step start. Checked by ``RESTWorkloadCheck``; every fifth
/// run, and the last, after quiescence against the server.
///
/// `RELIABILITY_REST_KILLS` sets the number of kill points (20 by default).
@Suite("Sync workload across kill -9 (real Rails, REST backend)", .serialized)
struct RESTSyncKillTests {
    @Test(.liveServer) func acknowledgedEditsSurviveKillsInsideRESTFlushes() async throws {
        try await killRuns()
    }

    func killRuns() async throws {
        let writer = try #require(ChildProcess.built("crash-writer"), "crash-writer not built: run `swift build --build-tests`")
        let environment = ProcessInfo.processInfo.environment
        let kills = environment["RELIABILITY_REST_KILLS"].flatMap(Int.init) ?? 20
        let seed = environment["RELIABILITY_SEED"].flatMap(UInt64.init) ?? 20_250_901
        let check = RESTWorkloadCheck(server: try RailsServer.url(), scope: RailsServer.uniqueName("kill"))
        var random = ObjectStoreCrashTests.SeededGenerator(state: seed &+ 5)
        var tally = ReliabilityTally(scenario: "REST kill -9 during edits and sync")

        try await withTemporaryDirectory { directory in
            let storePath = directory.path("kill.sqlite")
            var model: ObjectStoreCrashTests.Model = [:]
            var firstValue: Int64 = 1
            for round in 0..<kills {
                let point = SyncKillTests.KillPoint.random(using: &random)
                let context = "REST run \(round) (seed \(seed), kill \(point))"
                let seen = Locked(0)
                let child = ChildProcess(executable: writer, arguments: [
                    storePath, String(random.next()), String(firstValue),
                    "--server", check.server.absoluteString, "--bucket", check.scope, "--timeout", "10", "--backend", "rest",
                ])
                let outcome = try await child.run(stderrPath: directory.path("stderr-\(round).txt")) { line in
                    guard line.hasPrefix(point.prefix) else { return .goOn }
                    return seen.withLock { $0 += 1; return $0 } == point.count ? .kill(afterMicroseconds: point.jitter) : .goOn
                }
                try #require(outcome.killed, "\(context): crash-writer ended by itself (\(outcome.exitStatus)): \(outcome.stderr)")
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
