import Foundation
import OfflineStore
import Testing

/// `failed`, `retry`, `rollback`, `discard` and `reset` against the real Kinto.
///
/// Kinto (without schemas) refuses only malformed requests, so the tests stage one: they
/// change the stored local copy's `"id"` behind the CLI's back, and Kinto answers 400
/// ("Object id does not match existing object") — a real rejection by the real server.
@Suite("CLI failed entries and reset")
struct CLIFailedEntryTests {
    /// Makes the next flush of `id` send a record whose `"id"` differs from its URL.
    static func makeServerRefuse(_ store: CLIStore, _ id: String) throws {
        try store.execute(sql: "UPDATE objects SET local = json_set(local, '$.id', 'not-' || id) WHERE id = ?",
                          arguments: [id])
    }

    @Test(.liveServer) func aRejectedCreateIsListedThenDiscarded() async throws {
        try await CLIWorkspace.with { workspace in
            let store = try await workspace.store().initialise()
            try await store.expect(0, "create", "todos", #"{"t":1}"#, "--id", "a")
            try await store.expect(0, "create", "todos", #"{"t":1}"#, "--id", "ok")
            try Self.makeServerRefuse(store, "a")

            let report = try await store.expect(4, "sync").json()
            #expect(report["failed"] == 1 && report["pushed"] == 1 && report["lateDeliveriesUndone"] == 0)
            let failed = try await store.expect(0, "failed").json()
            let entry = try #require(failed.arrayValue?.first)
            #expect(failed.arrayValue?.count == 1)
            #expect(entry["collection"] == "todos" && entry["id"] == "a" && entry["kind"] == "create")
            #expect(entry["status"] == 400)
            #expect(entry["body"]?.stringValue?.contains("id") == true)
            #expect(try await store.expect(0, "failed", "todos").json() == failed)
            #expect(try await store.expect(0, "get", "todos", "a", "--all").json()["state"] == "failed")
            #expect(try await store.expect(0, "status").json()["failed"] == 1)

            let rollback = try await store.expect(1, "rollback", "todos", "a")
            #expect(rollback.stderr.contains("discard"))
            let discarded = try await store.expect(0, "discard", "todos", "a")
            #expect(discarded.stdoutLines.isEmpty)
            try await store.expect(3, "get", "todos", "a")
            #expect(try await store.queue().isEmpty)
            #expect(try await store.expect(0, "failed").json() == [])
        }
    }

    @Test(.liveServer) func aRejectedUpdateIsRolledBack() async throws {
        try await CLIWorkspace.with { workspace in
            let store = try await workspace.store().initialise()
            try await store.expect(0, "create", "todos", #"{"t":1}"#, "--id", "b")
            try await store.expect(0, "sync")
            try await store.expect(0, "update", "todos", "b", #"{"t":2}"#)
            try Self.makeServerRefuse(store, "b")
            try await store.expect(4, "flush")
            #expect(try await store.expect(0, "failed").json().arrayValue?.first?["kind"] == "update")

            let discard = try await store.expect(1, "discard", "todos", "b")
            #expect(discard.stderr.contains("roll"))
            #expect(try await store.expect(0, "rollback", "todos", "b").json() == ["id": "b", "t": 1])
            #expect(try await store.expect(0, "get", "todos", "b", "--all").json()["state"] == "synced")
            #expect(try await store.queue().isEmpty)
        }
    }

    @Test(.liveServer) func aRejectedEditIsFixedAndRetried() async throws {
        try await CLIWorkspace.with { workspace in
            let store = try await workspace.store().initialise()
            try await store.expect(0, "create", "todos", #"{"t":"bad"}"#, "--id", "c")
            try Self.makeServerRefuse(store, "c")
            try await store.expect(4, "sync")
            // The fix waits behind the failed entry until it is retried.
            try await store.expect(0, "update", "todos", "c", #"{"t":"fixed"}"#)
            #expect(try await store.queue().count == 2)
            #expect(try await store.expect(4, "sync").json()["failed"] == 1)

            #expect(try await store.expect(0, "retry", "todos", "c").json() == ["id": "c", "t": "fixed"])
            let entries = try await store.queue()
            #expect(entries.first?["state"] == "pending" && entries.first?["attempts"] == 1)
            #expect(try await store.expect(0, "sync").json()["failed"] == 0)
            #expect(try await store.queue().isEmpty)
            let other = try await workspace.store("other").initialise()
            try await other.expect(0, "refresh")
            #expect(try await other.expect(0, "get", "todos", "c").json() == ["id": "c", "t": "fixed"])
        }
    }

    @Test func actionsNeedAFailedEntry() async throws {
        try await CLIWorkspace.with { workspace in
            let store = try await workspace.store().initialiseOffline()
            try await store.expect(0, "create", "todos", "{}", "--id", "p")
            for action in ["retry", "rollback", "discard"] {
                try await store.expect(3, action, "todos", "nope")
                let pending = try await store.expect(1, action, "todos", "p")
                #expect(pending.stderr.contains("no failed entry"))
                try await store.expect(1, action, "ghosts", "p")
            }
            #expect(try await store.queue().count == 1)
        }
    }

    @Test(.liveServer) func clientResetKeepsPendingEditsAndFullResetDeletesEverything() async throws {
        try await CLIWorkspace.with { workspace in
            let store = try await workspace.store().initialise(collections: ["todos"])
            try await store.expect(0, "collection", "add", "drafts", "--local-only")
            for id in ["s1", "s2"] { try await store.expect(0, "create", "todos", #"{"v":1}"#, "--id", id) }
            try await store.expect(0, "sync")
            try await store.expect(0, "update", "todos", "s1", #"{"v":2}"#)
            try await store.expect(0, "create", "drafts", #"{"text":"local"}"#, "--id", "d")
            try await store.expect(64, "reset")
            try await store.expect(64, "reset", "--client", "--full")

            let afterClient = try await store.expect(0, "reset", "--client").json()
            #expect(afterClient["objects"] == 2)          // s1 (edited) and the draft
            #expect(afterClient["pending"] == 1)
            #expect(afterClient["lastSync"] == .null)
            try await store.expect(3, "get", "todos", "s2")
            #expect(try await store.expect(0, "sync").json()["pulled"] == 1)
            #expect(try await store.expect(0, "get", "todos", "s2").json() == ["id": "s2", "v": 1])
            #expect(try await store.expect(0, "get", "todos", "s1", "--all").json()["persistent"] == ["id": "s1", "v": 2])

            try await store.expect(0, "update", "todos", "s2", #"{"v":3}"#)
            let afterFull = try await store.expect(0, "reset", "--full").json()
            #expect(afterFull["objects"] == 0 && afterFull["pending"] == 0)
            #expect(afterFull["server"]?.stringValue != nil, "the server settings are kept")
            #expect(try await store.expect(0, "collection", "list").json().arrayValue?.count == 2)
            try await store.expect(0, "refresh")
            #expect(try await store.expect(0, "list", "todos").json() == [["id": "s1", "v": 2], ["id": "s2", "v": 1]])
        }
    }
}
