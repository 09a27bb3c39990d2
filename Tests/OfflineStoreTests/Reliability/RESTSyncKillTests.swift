import Foundation
import Testing

/// `SyncKillTests` on the REST backend: `crash-writer --backend rest` edits and syncs with
/// the real Rails test app (server-assigned ids, `Idempotency-Key` replay) and is killed
/// with SIGKILL at seeded points (`WorkloadDriver.KillPoint`): right after a request left,
/// right after its answer arrived (Rails applied it, the store has not recorded it), after
/// an acknowledgement, or at a step start. Checked by ``NamedWorkloadCheck``; every fifth
/// run, and the last, after quiescence against the server.
///
/// `RELIABILITY_REST_KILLS` sets the number of kill points (20 by default).
@Suite("Sync workload across kill -9 (real Rails, REST backend)", .serialized)
struct RESTSyncKillTests {
    @Test(.liveServer) func acknowledgedEditsSurviveKillsInsideRESTFlushes() async throws {
        let seed = TestEnvironment.reliabilitySeed
        let target = NamedWorkloadCheck(server: try RailsServer.url(), scope: RailsServer.uniqueName("kill"), kind: .rails)
        try await WorkloadDriver.killRuns(target, kills: TestEnvironment.number("RELIABILITY_REST_KILLS", default: 20),
                                          seed: seed, randomSeed: seed &+ 5, scenario: "REST kill -9 during edits and sync",
                                          label: "REST ")
    }
}
