import Foundation
import Testing

/// `FaultProxyTests` on the REST backend: the same workload (`crash-writer --backend rest`)
/// syncs with the real Rails test app through `scripts/faultproxy.py`, with server-assigned
/// ids (every create is re-keyed) and `Idempotency-Key` replay of resent creates. Checked by
/// ``NamedWorkloadCheck``: every acknowledged edit survives, no item is live twice on the
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
        let seed = TestEnvironment.reliabilitySeed
        let target = NamedWorkloadCheck(server: try RailsServer.url(), scope: RailsServer.uniqueName("fault"), kind: .rails)
        try await WorkloadDriver.faultRuns(target, kind: kind,
                                           edits: TestEnvironment.number("RELIABILITY_FAULT_EDITS", default: 40),
                                           runs: TestEnvironment.number("RELIABILITY_FAULT_RUNS", default: 1),
                                           seed: seed, randomSeed: WorkloadDriver.seed(seed, kind: kind, salt: 7),
                                           scenario: "REST proxy fault: \(kind)", label: "REST ")
    }
}
