import Foundation
import Testing

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
    @Test(.liveServer) func acknowledgedEditsSurviveKillsInsideFlushes() async throws {
        let seed = TestEnvironment.reliabilitySeed
        let target = WorkloadCheck(server: try KintoServer.workloadURL(), bucket: KintoServer.uniqueName("kill"))
        try await WorkloadDriver.killRuns(target, kills: TestEnvironment.number("RELIABILITY_KILLS", default: 50),
                                          seed: seed, randomSeed: seed, scenario: "kill -9 during edits and sync", label: "")
    }
}
