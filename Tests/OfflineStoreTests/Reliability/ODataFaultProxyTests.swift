import Foundation
import Testing

/// `FaultProxyTests` on the OData backend: the same workload (`crash-writer --backend odata`)
/// syncs with the real OData fixture, in both of its modes, through `scripts/faultproxy.py`.
/// The items are the fixture's `Customers`, whose keys the server assigns (every create is
/// re-keyed). A resent create is recognised by a refresh before the resend (neither mode
/// can replay one: delta mode answers a repeat of a client key with 409, plain mode with 500,
/// and a server key cannot be repeated at all). Checked by ``NamedWorkloadCheck``: every
/// acknowledged edit survives, no item is live twice, store and server agree after quiescence.
///
/// Runs the same fault kinds as `RESTFaultProxyTests` (`RELIABILITY_REST_FAULT_KINDS=all`
/// runs every kind), with `RELIABILITY_FAULT_EDITS` (40) and `RELIABILITY_FAULT_RUNS` (1).
@Suite("Sync workload through a fault-injecting proxy (real OData fixture, both modes)", .serialized)
struct ODataFaultProxyTests {
    static let cases: [(ODataServer.Mode, String)] = ODataServer.Mode.allCases.flatMap { mode in
        RESTFaultProxyTests.kinds.map { (mode, $0) }
    }

    @Test("faults between the store and the OData service lose and duplicate nothing", .liveServer, arguments: cases)
    func faultsLoseNothing(mode: ODataServer.Mode, kind: String) async throws {
        let seed = TestEnvironment.reliabilitySeed
        let target = NamedWorkloadCheck(server: try ODataServer.url(mode), scope: RailsServer.uniqueName("fault-\(mode)"), kind: .odata)
        try await WorkloadDriver.faultRuns(target, kind: kind,
                                           edits: TestEnvironment.number("RELIABILITY_FAULT_EDITS", default: 40),
                                           runs: TestEnvironment.number("RELIABILITY_FAULT_RUNS", default: 1),
                                           seed: seed, randomSeed: WorkloadDriver.seed(seed, kind: kind, salt: mode == .delta ? 11 : 13),
                                           scenario: "OData (\(mode)) proxy fault: \(kind)", label: "OData \(mode) ")
    }
}
