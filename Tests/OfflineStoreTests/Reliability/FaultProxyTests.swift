import Foundation
import Testing

/// Nothing acknowledged is lost and nothing is applied twice when the wire between the
/// store and a real Kinto misbehaves (SPEC §5, §11).
///
/// For each kind of fault, `crash-writer --server <proxy>` runs a seeded workload of edits,
/// flushes, refreshes and syncs through `scripts/faultproxy.py`, which injects that fault
/// into a seeded share of requests (pulls and writes alike). The workload must end by
/// itself (no crash, only typed errors); then the store is checked (`WorkloadCheck`),
/// synced to quiescence directly and compared with the server.
///
/// `RELIABILITY_FAULT_EDITS` sets the edits per run (30 by default), `RELIABILITY_FAULT_RUNS`
/// the runs per kind (1 by default; `scripts/torture` runs more).
@Suite("Sync workload through a fault-injecting proxy (real Kinto)", .serialized)
struct FaultProxyTests {
    static let kinds = ["delay", "timeout", "late", "reset", "drop", "5xx", "truncated", "malformed", "wrongtype", "huge"]

    @Test("faults on the wire lose nothing", .liveServer, arguments: kinds)
    func faultsLoseNothing(kind: String) async throws {
        let writer = try #require(ChildProcess.built("crash-writer"), "crash-writer not built: run `swift build --build-tests`")
        let environment = ProcessInfo.processInfo.environment
        let edits = environment["RELIABILITY_FAULT_EDITS"].flatMap(Int.init) ?? 30
        let runs = environment["RELIABILITY_FAULT_RUNS"].flatMap(Int.init) ?? 1
        let seed = environment["RELIABILITY_SEED"].flatMap(UInt64.init) ?? 20_250_901
        var random = ObjectStoreCrashTests.SeededGenerator(state: seed &+ UInt64(kind.utf8.reduce(0) { $0 &* 31 &+ Int($1) }))
        var tally = ReliabilityTally(scenario: "proxy fault: \(kind)")

        try await withTemporaryDirectory { directory in
            let check = WorkloadCheck(server: try KintoServer.workloadURL(), bucket: KintoServer.uniqueName("fault"))
            let storePath = directory.path("fault.sqlite")
            var model: ObjectStoreCrashTests.Model = [:]
            var firstValue: Int64 = 1
            for round in 0..<runs {
                let proxySeed = random.next()
                let context = "\(kind) run \(round) (seed \(seed), proxy seed \(proxySeed % 1_000_000_007))"
                let proxy = try await FaultProxy.start(upstream: check.server, seed: proxySeed, rate: 0.3, faults: [kind], hold: 2.5,
                                           logPath: directory.path("proxy-\(round).log"))
                let child = ChildProcess(executable: writer, arguments: [
                    storePath, String(random.next()), String(firstValue), String(edits),
                    "--server", proxy.url.absoluteString, "--bucket", check.bucket, "--timeout", "1",
                ])
                let outcome = try await child.run(stderrPath: directory.path("stderr-\(round).txt")) { _ in .goOn }
                await proxy.stop()
                #expect(outcome.exitStatus == 0, "\(context): the workload failed: \(outcome.stderr)")
                let run = try WorkloadTranscript(outcome.lines)
                let injected = proxy.requests().filter { $0.fault != "pass" }.count
                tally.runs += 1
                tally.injected += injected
                model = try check.checkLocal(storePath: storePath, model: model, run: run, tally: &tally, context: context)
                try await check.quiesceAndCompare(storePath: storePath, model: model, tally: &tally, context: context)
                firstValue += Int64(run.intents.count)
            }
        }
        print(tally)
        #expect(tally.isClean, "\(tally)")
        #expect(tally.injected > 0, "no \(kind) fault was injected: the scenario proved nothing")
    }
}
