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
        let seed = TestEnvironment.reliabilitySeed
        let target = WorkloadCheck(server: try KintoServer.workloadURL(), bucket: KintoServer.uniqueName("fault"))
        try await WorkloadDriver.faultRuns(target, kind: kind,
                                           edits: TestEnvironment.number("RELIABILITY_FAULT_EDITS", default: 30),
                                           runs: TestEnvironment.number("RELIABILITY_FAULT_RUNS", default: 1),
                                           seed: seed, randomSeed: WorkloadDriver.seed(seed, kind: kind, salt: 0),
                                           scenario: "proxy fault: \(kind)", label: "")
    }
}
