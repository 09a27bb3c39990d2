import Foundation
import Testing

/// `FaultProxyTests` on the REST backend: the same workload (`crash-writer --backend rest`)
/// syncs with the real Rails test app through `scripts/faultproxy.py`, with server-assigned
/// ids (every create is re-keyed) and `Idempotency-Key` replay of resent creates. Checked by
/// ``RESTWorkloadCheck``: every acknowledged edit survives, no item is live twice on the
/// server or locally, and store and server agree after quiescence.
///
/// The normal suite runs the faults that lose or mangle answers the server applied
/// (`RELIABILITY_REST_FAULT_KINDS=all` runs every kind, as `scripts/torture` does), with
/// `RELIABILITY_FAULT_EDITS` (40 here by default) and `RELIABILITY_FAULT_RUNS` (1).
@Suite("Sync workload through a fault-injecting proxy (real Rails, REST backend)", .serialized)
struct RESTFaultProxyTests {
    static let quickKinds = ["late", "drop", "5xx", "truncated"]
    static var kinds: [String] {
        ProcessInfo.processInfo.environment["RELIABILITY_REST_FAULT_KINDS"] == "all" ? FaultProxyTests.kinds : quickKinds
    }

    @Test("faults between the store and Rails lose and duplicate nothing", .liveServer, arguments: kinds)
    func faultsLoseNothing(kind: String) async throws {
        try await runs(kind: kind)
    }

    func runs(kind: String) async throws {
        let writer = try #require(ChildProcess.built("crash-writer"), "crash-writer not built: run `swift build --build-tests`")
        let environment = ProcessInfo.processInfo.environment
        let edits = environment["RELIABILITY_FAULT_EDITS"].flatMap(Int.init) ?? 40
        let runs = environment["RELIABILITY_FAULT_RUNS"].flatMap(Int.init) ?? 1
        let seed = environment["RELIABILITY_SEED"].flatMap(UInt64.init) ?? 20_250_901
        var random = ObjectStoreCrashTests.SeededGenerator(state: seed &+ UInt64(kind.utf8.reduce(7) { $0 &* 31 &+ Int($1) }))
        var tally = ReliabilityTally(scenario: "REST proxy fault: \(kind)")

        try await withTemporaryDirectory { directory in
            let check = RESTWorkloadCheck(server: try RailsServer.url(), scope: RailsServer.uniqueName("fault"))
            let storePath = directory.path("fault.sqlite")
            var model: ObjectStoreCrashTests.Model = [:]
            var firstValue: Int64 = 1
            for round in 0..<runs {
                let proxySeed = random.next()
                let context = "REST \(kind) run \(round) (seed \(seed), proxy seed \(proxySeed % 1_000_000_007))"
                let proxy = try await FaultProxy.start(upstream: check.server, seed: proxySeed, rate: 0.3, faults: [kind], hold: 2.5,
                                                       logPath: directory.path("proxy-\(round).log"))
                let child = ChildProcess(executable: writer, arguments: [
                    storePath, String(random.next()), String(firstValue), String(edits),
                    "--server", proxy.url.absoluteString, "--bucket", check.scope, "--timeout", "1", "--backend", "rest",
                ])
                let outcome = try await child.run(stderrPath: directory.path("stderr-\(round).txt")) { _ in .goOn }
                await proxy.stop()
                #expect(outcome.exitStatus == 0, "\(context): the workload failed: \(outcome.stderr)")
                let run = try WorkloadTranscript(outcome.lines)
                tally.runs += 1
                tally.injected += proxy.requests().filter { $0.fault != "pass" }.count
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
