import Foundation
import OfflineStore
import OfflineStorePlatform
import Testing

/// `sync --budget`: a sync that cannot finish within its budget (here it cannot even start:
/// another process holds the store's sync lock throughout) stops when the budget is spent,
/// exits 0 with `"stoppedAtBudget": true`, and loses nothing. The budget logic itself is
/// tested on an injected clock (`SyncLifecycleTests`).
@Suite("CLI sync budget")
struct CLIBudgetTests {
    @Test func aOneShotSyncGivesUpAtItsBudgetAndKeepsTheQueue() async throws {
        try await CLIWorkspace.with { workspace in
            let store = try await workspace.store().initialiseOffline()
            try await store.expect(0, "create", "todos", #"{"title":"milk"}"#, "--id", "t1")
            let holder = try await CLIInterruptTests.holdSyncLock(workspace, store)
            defer { holder.send(Signals.kill) }

            let result = try await store.run("sync", "--budget", "300ms")
            #expect(result.status == 0, "\(result)")
            let report = try result.json()
            #expect(report["stoppedAtBudget"] == true && report["error"] == .null, "\(report)")
            #expect(report["pushed"] == 0 && report["pending"] == 1, "\(report)")
            #expect(try await store.queue().count == 1)

            // Without a budget the output keeps its shape: no "stoppedAtBudget".
            holder.send(Signals.kill)
            _ = try? await holder.finish()
            let offline = try await store.run("sync")
            #expect(try offline.json()["stoppedAtBudget"] == nil, "\(offline)")
        }
    }

    @Test func everyScheduledRunHasItsBudget() async throws {
        try await CLIWorkspace.with { workspace in
            let store = try await workspace.store().initialiseOffline()
            let holder = try await CLIInterruptTests.holdSyncLock(workspace, store)
            defer { holder.send(Signals.kill) }
            let result = try await store.run("sync", "--every", "50ms", "--times", "2", "--budget", "200ms")
            #expect(result.status == 0, "\(result)")
            let lines = try result.jsonLines()
            #expect(lines.count == 2, "\(result)")
            for line in lines { #expect(line["stoppedAtBudget"] == true && line["exitCode"] == 0, "\(line)") }
            #expect(result.stderr.contains("each within 200ms"), "\(result)")
        }
    }

    @Test func aBudgetMustBeADuration() async throws {
        try await CLIWorkspace.with { workspace in
            let store = try await workspace.store().initialiseOffline()
            #expect(try await store.run("sync", "--budget", "soon").status == 64)
        }
    }
}
