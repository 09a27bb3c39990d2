import Foundation
import GRDB
@testable import OfflineStore
import Testing

/// The server side of a reliability workload: where `crash-writer` syncs, and how its
/// store is checked afterwards. Kinto (`WorkloadCheck`) and the servers that assign ids, the
/// Rails app and the OData fixture (`NamedWorkloadCheck`), are the targets; ``WorkloadDriver``
/// runs the same workloads on each.
protocol WorkloadTarget {
    /// The server `crash-writer` talks to (directly, or behind the fault proxy).
    var server: URL { get }
    /// The bucket (Kinto) or scope prefix (REST) of this run's data.
    var scope: String { get }
    /// The arguments that pick the backend in `crash-writer`.
    var writerArguments: [String] { get }
    func checkLocal(storePath: String, model: ObjectStoreCrashTests.Model, run: WorkloadTranscript,
                    tally: inout ReliabilityTally, context: String) throws -> ObjectStoreCrashTests.Model
    func quiesceAndCompare(storePath: String, model: ObjectStoreCrashTests.Model, tally: inout ReliabilityTally,
                           context: String) async throws
}

extension WorkloadCheck: WorkloadTarget {
    var scope: String { bucket }
    var writerArguments: [String] { [] }
}

extension NamedWorkloadCheck: WorkloadTarget {
    var writerArguments: [String] { kind.writerArguments }
}

/// The one driver of the kill -9 and fault-proxy workloads, for every backend.
enum WorkloadDriver {
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

    /// Opens the store a run left, after checking that SQLite finds the file whole.
    static func openChecked(_ storePath: String, context: String) throws -> ObjectStore {
        let store = try ObjectStore(path: storePath)
        let integrity = try store.local.read("checking integrity") { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        #expect(integrity == ["ok"], "\(context)")
        return store
    }

    static func crashWriter() throws -> URL {
        try #require(ChildProcess.built("crash-writer"), "crash-writer not built: run `swift build --build-tests`")
    }

    /// `kills` runs of `crash-writer`, each killed with SIGKILL at a seeded point; the store
    /// is checked after each, and synced to quiescence and compared with the server every
    /// fifth run and after the last. Prints the tally's `RELIABILITY-ROW`.
    static func killRuns(_ target: some WorkloadTarget, kills: Int, seed: UInt64, randomSeed: UInt64,
                         scenario: String, label: String) async throws {
        let writer = try crashWriter()
        var random = ObjectStoreCrashTests.SeededGenerator(seed: randomSeed)
        var tally = ReliabilityTally(scenario: scenario)
        try await withTemporaryDirectory { directory in
            let storePath = directory.path("kill.sqlite")
            var model: ObjectStoreCrashTests.Model = [:]
            var firstValue: Int64 = 1
            for round in 0..<kills {
                let point = KillPoint.random(using: &random)
                let context = "\(label)run \(round) (seed \(seed), kill \(point))"
                let seen = Locked(0)
                let child = ChildProcess(executable: writer, arguments: [
                    storePath, String(random.next()), String(firstValue),
                    "--server", target.server.absoluteString, "--bucket", target.scope, "--timeout", "10",
                ] + target.writerArguments)
                let outcome = try await child.run(stderrPath: directory.path("stderr-\(round).txt")) { line in
                    guard line.hasPrefix(point.prefix) else { return .goOn }
                    return seen.withLock { $0 += 1; return $0 } == point.count ? .kill(afterMicroseconds: point.jitter) : .goOn
                }
                try #require(outcome.killed, "\(context): crash-writer ended by itself (\(outcome.exitStatus)): \(outcome.stderr)")
                #expect(outcome.exitStatus == SIGKILL, "\(context): \(outcome.stderr)")
                let run = try WorkloadTranscript(outcome.lines)
                tally.runs += 1
                tally.injected += 1
                model = try target.checkLocal(storePath: storePath, model: model, run: run, tally: &tally, context: context)
                if round % 5 == 4 || round == kills - 1 {
                    try await target.quiesceAndCompare(storePath: storePath, model: model, tally: &tally, context: context)
                }
                firstValue += Int64(run.intents.count)
            }
        }
        print(tally)
        #expect(tally.isClean, "\(tally)")
        #expect(tally.editsChecked >= kills, "too few acknowledged edits to prove anything: \(tally)")
    }

    /// `runs` runs of `crash-writer` with `edits` edits each, syncing through
    /// `scripts/faultproxy.py`, which injects `kind` into a seeded share of requests; the
    /// workload must end by itself, then the store is checked, synced to quiescence and
    /// compared with the server. Prints the tally's `RELIABILITY-ROW`.
    static func faultRuns(_ target: some WorkloadTarget, kind: String, edits: Int, runs: Int, seed: UInt64,
                          randomSeed: UInt64, scenario: String, label: String) async throws {
        let writer = try crashWriter()
        var random = ObjectStoreCrashTests.SeededGenerator(seed: randomSeed)
        var tally = ReliabilityTally(scenario: scenario)
        try await withTemporaryDirectory { directory in
            let storePath = directory.path("fault.sqlite")
            var model: ObjectStoreCrashTests.Model = [:]
            var firstValue: Int64 = 1
            // A seeded run of few requests may draw no fault at all; a few more runs (with
            // new seeds) make sure the scenario proves something.
            var round = 0
            while round < runs || (tally.injected == 0 && round < runs + 3) {
                defer { round += 1 }
                let proxySeed = random.next()
                let context = "\(label)\(kind) run \(round) (seed \(seed), proxy seed \(proxySeed % 1_000_000_007))"
                let proxy = try await FaultProxy.start(upstream: target.server, seed: proxySeed, rate: 0.3, faults: [kind], hold: 2.5,
                                                       logPath: directory.path("proxy-\(round).log"))
                let child = ChildProcess(executable: writer, arguments: [
                    storePath, String(random.next()), String(firstValue), String(edits),
                    "--server", proxy.url.absoluteString, "--bucket", target.scope, "--timeout", "1",
                ] + target.writerArguments)
                let outcome = try await child.run(stderrPath: directory.path("stderr-\(round).txt")) { _ in .goOn }
                await proxy.stop()
                #expect(outcome.exitStatus == 0, "\(context): the workload failed: \(outcome.stderr)")
                let run = try WorkloadTranscript(outcome.lines)
                tally.runs += 1
                tally.injected += proxy.requests().filter { $0.fault != "pass" }.count
                model = try target.checkLocal(storePath: storePath, model: model, run: run, tally: &tally, context: context)
                try await target.quiesceAndCompare(storePath: storePath, model: model, tally: &tally, context: context)
                firstValue += Int64(run.intents.count)
            }
        }
        print(tally)
        #expect(tally.isClean, "\(tally)")
        #expect(tally.injected > 0, "no \(kind) fault was injected: the scenario proved nothing")
    }

    /// A seed of its own for each fault kind.
    static func seed(_ seed: UInt64, kind: String, salt: Int) -> UInt64 {
        seed &+ UInt64(kind.utf8.reduce(salt) { $0 &* 31 &+ Int($1) })
    }
}
