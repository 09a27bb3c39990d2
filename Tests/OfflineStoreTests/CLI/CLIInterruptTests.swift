import Foundation
import OfflineStore
import Testing

/// SIGINT during a one-shot `offline-store sync` cancels it at a safe point: exit 130, the
/// report of what was done on stdout, nothing lost.
@Suite("CLI interrupt")
struct CLIInterruptTests {
    /// A process holding the store's sync lock, as a running flush of another process does.
    static func holdSyncLock(_ workspace: CLIWorkspace, _ store: CLIStore) async throws -> CLIProcess {
        let script = """
            import fcntl, sys, time
            f = open(sys.argv[1], "a"); fcntl.flock(f, fcntl.LOCK_EX); print("held", flush=True); time.sleep(60)
            """
        let holder = try workspace.start(["python3", "-c", script, store.path + ".sync-lock"],
                                         executable: URL(fileURLWithPath: "/usr/bin/env"))
        try #require(await holder.stdout.first { $0 == "held" } != nil, "\(holder.stderr.lines)")
        return holder
    }

    @Test(.liveServer) func sigintWhileWaitingForAnotherProcesssSyncExits130AndKeepsTheQueue() async throws {
        try await CLIWorkspace.with { workspace in
            let store = try await workspace.store().initialise()
            try await store.expect(0, "create", "todos", #"{"title":"milk"}"#, "--id", "t1")
            let holder = try await Self.holdSyncLock(workspace, store)
            defer { holder.send(SIGKILL) }

            let sync = try workspace.start(["sync", "--store", store.path])
            let waiting = await sync.stderr.first { $0.contains("another process is syncing this store") }
            try #require(waiting != nil, "\(sync.stderr.lines)")
            sync.send(SIGINT)
            let result = try await sync.finish()
            #expect(result.status == 130, "\(result)")
            let report = try result.json()
            #expect(report["pushed"] == 0 && report["pending"] == 1)
            #expect(report["error"]?.stringValue?.contains("cancelled") == true, "\(report)")
            #expect(result.stderr.contains("stopped early"), "\(result)")

            holder.send(SIGKILL)        // SIGTERM may be blocked in children of the test runner
            _ = try? await holder.finish()
            #expect(try await store.queue().count == 1)
            #expect(try await store.expect(0, "sync").json()["pushed"] == 1)
        }
    }
}
