import Foundation
import OfflineStore
import Testing

/// Many processes on one store file against a real Kinto: an immediate editor (one
/// `offline-store` process per command), a deferred editor (this test process, through the
/// library), two `sync --every` services and a loop of one-shot `sync`s, all at once.
/// Before the cross-process sync lock, 37 to 65 of about 150 commands exited 1 ("queue entry N has no local copy to send"):
/// each starting flush took the other process's in-flight entries for a crash's leftovers.
@Suite("CLI many processes")
struct CLIManyProcessTests {
    static let edits = 12

    @Test(.liveServer) func editorsAndSyncersOnOneFileNeverFailAndLoseOrDuplicateNothing() async throws {
        try await CLIWorkspace.with { workspace in
            let shared = try await workspace.store("shared").initialise(deferred: false)
            // Two `sync --every` services on the one file, as two schedulers (or an app's AutoSync
            // and a cron job) would run.
            var services: [CLIProcess] = []
            for every in ["150ms", "230ms"] {
                let service = try workspace.start(["sync", "--every", every, "--store", shared.path])
                let notice = await service.stderr.first { $0.contains("syncing every") }
                try #require(notice != nil, "no start notice: \(service.stderr.lines)")
                services.append(service)
            }

            let failures = try await withThrowingTaskGroup(of: [String].self) { group in
                group.addTask { try await ManyProcessWorkload.editWithTheCLI(shared, editor: "immediate", edits: Self.edits) }
                group.addTask { try await ManyProcessWorkload.editWithTheLibrary(shared.path, editor: "deferred", edits: Self.edits) }
                group.addTask { try await ManyProcessWorkload.syncRepeatedly(shared, times: 8) }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(failures.isEmpty, "\(failures.count) failed commands:\n\(failures.joined(separator: "\n"))")
            for service in services {
                service.send(SIGTERM)
                let result = try await service.finish()
                #expect(result.status == 0, "\(result)")
                let runs = try result.jsonLines()
                #expect(!runs.isEmpty && runs.allSatisfy { $0["exitCode"] == 0 }, "\(result)")
            }

            var tally = ReliabilityTally(scenario: "many processes, one store")
            try await ManyProcessWorkload.check(workspace, shared, editors: ["immediate", "deferred"], edits: Self.edits,
                                                into: &tally)
            #expect(tally.isClean, "\(tally)")
            #expect(tally.editsChecked == 4 * Self.edits)
        }
    }

    @Test(.liveServer) func isSyncingSeesAnotherProcess() async throws {
        try await CLIWorkspace.with { workspace in
            let shared = try await workspace.store("shared").initialise()
            let store = try ObjectStore(path: shared.path)
            #expect(store.isSyncing == false)
            // A process that holds the sync lock the way a running flush does (`sync` holds it
            // only for the length of a run, too short to look at).
            let holder = try await CLIInterruptTests.holdSyncLock(workspace, shared)
            #expect(store.isSyncing)
            holder.send(SIGKILL)        // SIGTERM may be blocked in children of the test runner
            _ = try? await holder.finish()
            #expect(store.isSyncing == false)
            try store.close()
        }
    }
}
