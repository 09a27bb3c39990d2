import Foundation
import OfflineStore
import Testing

/// `flush`, `refresh`, `sync`, `conflicts`, `resolve` and `status` against the real Kinto,
/// and the exit codes of sync: 4 (conflicts remain), 5 (unreachable), 6 (credentials).
@Suite("CLI sync")
struct CLISyncTests {
    static let reportKeys: Set<String> = ["pushed", "pulled", "conflicts", "failed", "pending"]

    @Test(.liveServer) func flushRefreshAndSyncCarryEditsBetweenClients() async throws {
        try await CLIWorkspace.with { workspace in
            let a = try await workspace.store("a").initialise()
            let b = try await workspace.store("b").initialise(deferred: false)
            try await a.expect(0, "create", "todos", #"{"title":"milk"}"#, "--id", "t1")
            try await a.expect(0, "update", "todos", "t1", #"{"n":1}"#, "--merge")

            let flushed = try await a.expect(0, "flush").json()
            #expect(Self.reportKeys.isSubset(of: Set(flushed.objectValue?.keys ?? [:].keys)))
            #expect(flushed["pushed"] == 1)
            #expect(flushed["pending"] == 0)
            #expect(flushed["error"] == .null)

            let refreshed = try await b.expect(0, "refresh").json()
            #expect(refreshed["pulled"] == 1)
            #expect(try await b.expect(0, "get", "todos", "t1").json() == ["id": "t1", "title": "milk", "n": 1])

            // B is immediate: its edit reaches the server at once.
            try await b.expect(0, "update", "todos", "t1", #"{"n":2}"#, "--merge")
            #expect(try await b.queue().isEmpty)
            let synced = try await a.expect(0, "sync").json()
            #expect(synced["pulled"] == 1 && synced["pushed"] == 0)
            let all = try await a.expect(0, "get", "todos", "t1", "--all").json()
            #expect(all["state"] == "synced")
            #expect(all["persistent"] == ["id": "t1", "title": "milk", "n": 2])
            #expect(all["serverVersion"]?.stringValue != nil)

            let status = try await a.expect(0, "status").json()
            #expect(status["objects"] == 1 && status["pending"] == 0 && status["conflicts"] == 0 && status["failed"] == 0)
            #expect(status["lastSync"]?.stringValue?.hasSuffix("Z") == true)
            try await a.expect(0, "refresh", "--full")
        }
    }

    @Test(.liveServer) func aConflictExitsWith4UntilItIsResolved() async throws {
        try await CLIWorkspace.with { workspace in
            let a = try await workspace.store("a").initialise()
            let b = try await workspace.store("b").initialise()
            try await a.expect(0, "create", "todos", #"{"title":"milk","n":1}"#, "--id", "t1")
            try await a.expect(0, "sync")
            try await b.expect(0, "sync")
            try await b.expect(0, "update", "todos", "t1", #"{"title":"oat milk"}"#, "--merge")
            try await b.expect(0, "sync")
            try await a.expect(0, "update", "todos", "t1", #"{"n":2}"#, "--merge")

            let report = try await a.expect(4, "sync").json()
            #expect(report["conflicts"] == 1)
            #expect(report["pending"] == 1)
            let conflicts = try await a.expect(0, "conflicts").json()
            #expect(conflicts == [[
                "collection": "todos", "id": "t1",
                "base": ["id": "t1", "title": "milk", "n": 1],
                "local": ["id": "t1", "title": "milk", "n": 2],
                "server": ["id": "t1", "title": "oat milk", "n": 1],
                "serverVersion": try #require(conflicts.arrayValue?.first?["serverVersion"]),
            ]])
            #expect(try await a.expect(0, "conflicts", "todos").json() == conflicts)
            #expect(try await a.expect(4, "flush").json()["conflicts"] == 1)
            #expect(try await a.expect(0, "status").json()["conflicts"] == 1)

            let resolved = try await a.expect(0, "resolve", "todos", "t1", "--with", #"{"title":"oat milk","n":2}"#).json()
            #expect(resolved == ["id": "t1", "title": "oat milk", "n": 2])
            #expect(try await a.expect(0, "conflicts").json() == [])
            try await a.expect(1, "resolve", "todos", "t1", "--keep", "local")    // no longer conflicted
            try await a.expect(3, "resolve", "todos", "nope", "--keep", "server")
            try await a.expect(64, "resolve", "todos", "t1")
            try await a.expect(64, "resolve", "todos", "t1", "--keep", "local", "--with", "{}")
            #expect(try await a.expect(0, "sync").json()["pushed"] == 1)
            try await b.expect(0, "refresh")
            #expect(try await b.expect(0, "get", "todos", "t1").json() == ["id": "t1", "title": "oat milk", "n": 2])
        }
    }

    @Test(.liveServer) func keepServerAndKeepLocalResolveConflicts() async throws {
        try await CLIWorkspace.with { workspace in
            let a = try await workspace.store("a").initialise()
            let b = try await workspace.store("b").initialise()
            for id in ["k1", "k2"] { try await a.expect(0, "create", "todos", #"{"v":0}"#, "--id", id) }
            try await a.expect(0, "sync")
            try await b.expect(0, "sync")
            for id in ["k1", "k2"] {
                try await b.expect(0, "update", "todos", id, #"{"v":"server"}"#)
                try await a.expect(0, "update", "todos", id, #"{"v":"local"}"#)
            }
            try await b.expect(0, "sync")
            #expect(try await a.expect(4, "sync").json()["conflicts"] == 2)
            #expect(try await a.expect(0, "resolve", "todos", "k1", "--keep", "server").json() == ["id": "k1", "v": "server"])
            #expect(try await a.expect(0, "resolve", "todos", "k2", "--keep", "local").json() == ["id": "k2", "v": "local"])
            try await a.expect(0, "sync")
            try await b.expect(0, "sync")
            #expect(try await b.expect(0, "get", "todos", "k1").json() == ["id": "k1", "v": "server"])
            #expect(try await b.expect(0, "get", "todos", "k2").json() == ["id": "k2", "v": "local"])
        }
    }

    @Test func anUnreachableServerExitsWith5AndKeepsTheQueue() async throws {
        try await CLIWorkspace.with { workspace in
            let deferred = try await workspace.store("deferred").initialiseOffline()
            try await deferred.expect(0, "create", "todos", #"{"t":1}"#, "--id", "a")
            for command in ["flush", "refresh", "sync"] {
                let result = try await deferred.expect(5, command)
                #expect(try result.json()["pending"] == 1)
                #expect(try result.json()["error"]?.stringValue?.isEmpty == false)
                #expect(result.stderr.contains("connect"), "\(result)")
            }
            #expect(try await deferred.queue().count == 1)

            // Immediate mode: queue-if-offline queues (exit 0), update-if-online changes nothing (exit 5).
            let immediate = try await workspace.store("immediate").initialiseOffline(deferred: false)
            try await immediate.expect(0, "collection", "add", "online", "--update-policy", "update-if-online")
            let queued = try await immediate.expect(0, "create", "todos", #"{"t":1}"#, "--id", "a")
            #expect(try queued.json() == ["id": "a", "t": 1])
            #expect(queued.stderr.contains("queued"))
            try await immediate.expect(5, "create", "online", #"{"t":1}"#, "--id", "a")
            try await immediate.expect(3, "get", "online", "a")
            #expect(try await immediate.queue().count == 1)

            // Deferred mode still needs the server for update-if-online collections.
            try await deferred.expect(0, "collection", "add", "online", "--update-policy", "update-if-online")
            try await deferred.expect(5, "create", "online", #"{"t":1}"#, "--id", "b")
            #expect(try await deferred.queue().count == 1)
        }
    }

    @Test(.liveServer) func refusedCredentialsExitWith6() async throws {
        try await CLIWorkspace.with { workspace in
            // Kinto's basic auth takes any user:password, but refuses a bearer token (401).
            let store = try await workspace.store().initialise(extra: ["--token-env", "CLI_TOKEN"])
            try await store.expect(0, "create", "todos", #"{"t":1}"#, "--id", "a", environment: ["CLI_TOKEN": "not-a-token"])
            let refused = try await store.expect(6, "sync", environment: ["CLI_TOKEN": "not-a-token"])
            #expect(try refused.json()["pending"] == 1)
            #expect(try await store.queue().count == 1)

            // The variable named at init is not set: exit 6 before anything is sent.
            let unset = try await store.expect(6, "sync", environment: ["CLI_TOKEN": ""])
            #expect(unset.stderr.contains("CLI_TOKEN"))
            #expect(unset.stdoutLines.isEmpty)
            let immediate = try await workspace.store("immediate").initialise(deferred: false)
            let edit = try await immediate.expect(6, "create", "todos", "{}", "--id", "x", environment: ["CLI_PASSWORD": ""])
            #expect(edit.stderr.contains("CLI_PASSWORD"))
            try await immediate.expect(3, "get", "todos", "x")
        }
    }

    /// bob syncs in alice's bucket: one collection he may write, one he may not read. The
    /// sync sends and pulls the other, prints the refusal on stderr and in `"refused"`, and exits 6.
    @Test(.liveServer) func aSyncWithARefusedCollectionPrintsItAndExits6() async throws {
        try await CLIWorkspace.with { workspace in
            let base = try #require(URL(string: try CLIKinto.url()))
            let alice = SharingKintoTests.KintoUser(name: "alice", base: base)
            let bobID = try await SharingKintoTests.KintoUser(name: "bob", base: base).id()
            let collections = "/buckets/\(workspace.bucket)/collections"
            try await alice.put("/buckets/\(workspace.bucket)", ["data": [:]])
            try await alice.put("\(collections)/todos", ["permissions": ["write": [.string(bobID)]]])
            try await alice.put("\(collections)/secret", ["data": [:]])
            try await alice.put("\(collections)/todos/records/t0", ["data": ["title": "alice's"]])

            let bob = try await workspace.store().initialise(collections: ["todos", "secret"],
                                                             extra: ["--user", "bob", "--password-env", "CLI_PASSWORD"])
            try await bob.expect(0, "create", "todos", #"{"title":"bob's"}"#, "--id", "t1")
            try await bob.expect(0, "create", "secret", #"{"title":"not allowed"}"#, "--id", "x1")
            let result = try await bob.expect(6, "sync")
            let report = try result.json()
            #expect(report["pushed"] == 1)
            #expect(report["pulled"] == 1)
            #expect(report["pending"] == 1)
            #expect(report["error"] == .null)
            let refused = try #require(report["refused"]?.arrayValue)
            #expect(Set(refused.compactMap { $0["collection"]?.stringValue }) == ["secret"])
            #expect(Set(refused.compactMap { $0["direction"]?.stringValue }) == ["push", "pull"])
            #expect(refused.allSatisfy { $0["status"] == 403 && $0["message"]?.stringValue?.isEmpty == false })
            #expect(result.stderr.contains(#"the server refused collection "secret" (push)"#), "\(result)")
            #expect(result.stderr.contains(#"the server refused collection "secret" (pull)"#), "\(result)")
            try await bob.expect(0, "get", "todos", "t0")
            #expect(try await bob.queue().compactMap { $0["id"]?.stringValue } == ["x1"])
        }
    }
}
