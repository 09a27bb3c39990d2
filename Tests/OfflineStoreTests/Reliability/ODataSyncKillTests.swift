import Foundation
import Testing

/// `SyncKillTests` on the OData backend: `crash-writer --backend odata` edits the OData
/// fixture's `Customers` (server-assigned keys) and syncs, in both of the fixture's modes, and
/// is killed with SIGKILL at seeded points (`WorkloadDriver.KillPoint`): right after a request
/// left, right after its answer arrived (the service applied it, the store has not recorded
/// it), after an acknowledgement, or at a step start. Checked by ``NamedWorkloadCheck``.
///
/// `RELIABILITY_ODATA_KILLS` sets the number of kill points per mode (20 by default).
@Suite("Sync workload across kill -9 (real OData fixture, both modes)", .serialized)
struct ODataSyncKillTests {
    @Test(.liveServer, arguments: ODataServer.Mode.allCases)
    func acknowledgedEditsSurviveKillsInsideODataFlushes(mode: ODataServer.Mode) async throws {
        let seed = TestEnvironment.reliabilitySeed
        let target = NamedWorkloadCheck(server: try ODataServer.url(mode), scope: RailsServer.uniqueName("kill-\(mode)"), kind: .odata)
        try await WorkloadDriver.killRuns(target, kills: TestEnvironment.number("RELIABILITY_ODATA_KILLS", default: 20),
                                          seed: seed, randomSeed: seed &+ (mode == .delta ? 17 : 19),
                                          scenario: "OData (\(mode)) kill -9 during edits and sync", label: "OData \(mode) ")
    }
}
