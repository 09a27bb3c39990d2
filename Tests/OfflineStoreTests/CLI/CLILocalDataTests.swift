import Foundation
import OfflineStore
import Testing

/// `create`, `update`, `delete`, `get`, `list`, `queue` and hostile input, on a store whose
/// server is unreachable (deferred: nothing needs the network).
@Suite("CLI local data")
struct CLILocalDataTests {
    @Test func editsAreQueuedAndCoalesced() async throws {
        try await CLIWorkspace.with { workspace in
            let store = try await workspace.store().initialiseOffline()
            let created = try await store.expect(0, "create", "todos", #"{"title":"Buy milk","n":1}"#, "--id", "a").json()
            #expect(created == ["id": "a", "title": "Buy milk", "n": 1])
            let generated = try await store.expect(0, "create", "todos", #"{"title":"no id"}"#).json()
            #expect(generated["id"]?.stringValue?.count == 36)

            #expect(try await store.expect(0, "update", "todos", "a", #"{"n":2}"#, "--merge").json()
                == ["id": "a", "title": "Buy milk", "n": 2])
            #expect(try await store.expect(0, "update", "todos", "a", #"{"title":"Oat milk"}"#).json()
                == ["id": "a", "title": "Oat milk"])
            #expect(try await store.expect(0, "update", "todos", "a", #"{"title":null,"done":true}"#, "--merge").json()
                == ["id": "a", "done": true])

            // create + 3 updates of "a" are one create entry.
            let queue = try await store.queue()
            #expect(queue.count == 2)
            let first = try #require(queue.first)
            #expect(first["collection"] == "todos")
            #expect(first["id"] == "a")
            #expect(first["kind"] == "create")
            #expect(first["state"] == "pending")
            #expect(first["attempts"] == 0)
            #expect(first["lastError"] == .null)
            #expect(first["seq"]?.intValue != nil)

            // create + delete leaves nothing.
            let deleted = try await store.expect(0, "delete", "todos", "a")
            #expect(deleted.stdoutLines.isEmpty)
            #expect(try await store.queue().count == 1)
            try await store.expect(3, "get", "todos", "a")
        }
    }

    @Test func getShowsTheObjectOrEveryCopy() async throws {
        try await CLIWorkspace.with { workspace in
            let store = try await workspace.store().initialiseOffline()
            try await store.expect(0, "create", "todos", #"{"title":"x"}"#, "--id", "a")
            #expect(try await store.expect(0, "get", "todos", "a").json() == ["id": "a", "title": "x"])
            let all = try await store.expect(0, "get", "todos", "a", "--all").json()
            #expect(all["id"] == "a")
            #expect(all["state"] == "created")
            #expect(all["local"] == ["id": "a", "title": "x"])
            #expect(all["persistent"] == .null)
            #expect(all["base"] == .null)
            #expect(all["serverVersion"] == .null)

            let missing = try await store.expect(3, "get", "todos", "nope")
            #expect(missing.stderr.contains("todos/nope"))
            try await store.expect(3, "get", "todos", "nope", "--all")
            try await store.expect(3, "update", "todos", "nope", "{}")
            try await store.expect(3, "update", "todos", "nope", "{}", "--merge")
            try await store.expect(3, "delete", "todos", "nope")
        }
    }

    @Test func listFiltersByFieldsStateAndLimit() async throws {
        try await CLIWorkspace.with { workspace in
            let store = try await workspace.store().initialiseOffline()
            try await store.expect(0, "create", "todos", #"{"title":"a","done":false,"n":1,"tag":"x"}"#, "--id", "a")
            try await store.expect(0, "create", "todos", #"{"title":"b","done":true,"n":2,"tag":"x"}"#, "--id", "b")
            try await store.expect(0, "create", "todos", #"{"title":"c","done":false,"n":2,"tag":"1"}"#, "--id", "c")

            func ids(_ arguments: String...) async throws -> [String] {
                let result = try await store.workspace.run(["list", "todos"] + arguments + ["--store", store.path])
                #expect(result.status == 0, "\(result)")
                return try result.json().arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
            }
            #expect(try await ids() == ["a", "b", "c"])
            #expect(try await ids("--where", "done=false") == ["a", "c"])
            #expect(try await ids("--where", "done=false", "--where", "n=2") == ["c"])
            #expect(try await ids("--where", "title=b") == ["b"])          // not JSON: a string
            #expect(try await ids("--where", #"tag="1""#) == ["c"])        // a JSON string
            #expect(try await ids("--where", "tag=1") == [])               // the number 1
            #expect(try await ids("--limit", "2") == ["a", "b"])
            #expect(try await ids("--state", "created") == ["a", "b", "c"])
            #expect(try await ids("--state", "synced") == [])
            try await store.expect(64, "list", "todos", "--where", "novalue")
            try await store.expect(64, "list", "todos", "--limit", "-1")
            try await store.expect(64, "list", "todos", "--state", "lost")
            try await store.expect(1, "list", "todos", "--where", "a..b=1")
        }
    }

    @Test func hostileInputChangesNothing() async throws {
        try await CLIWorkspace.with { workspace in
            let store = try await workspace.store().initialiseOffline()
            try await store.expect(0, "create", "todos", #"{"title":"keep"}"#, "--id", "a")
            let before = try await store.queue()

            let badJSON = try await store.expect(64, "create", "todos", #"{"title": nope}"#)
            #expect(badJSON.stderr.contains("at byte 10"), "\(badJSON)")
            #expect(badJSON.stderr.split(separator: "\n").count == 1)
            #expect(try await store.expect(64, "update", "todos", "a", #"{"title":"#).stderr.contains("byte"))
            #expect(try await store.expect(64, "create", "todos", "[1,2]").stderr.contains("array"))
            try await store.expect(64, "create", "todos", #"{"id":"b"}"#, "--id", "c")
            try await store.expect(64, "resolve", "todos", "a", "--with", "{")

            let unknown = try await store.expect(1, "create", "ghosts", "{}")
            #expect(unknown.stderr.contains("ghosts"))
            try await store.expect(1, "get", "ghosts", "a")
            try await store.expect(1, "list", "ghosts")
            try await store.expect(1, "conflicts", "ghosts")

            let badID = try await store.expect(1, "create", "todos", "{}", "--id", "../etc/passwd")
            #expect(badID.stderr.contains("id"))
            try await store.expect(1, "create", "todos", #"{"id":"-x"}"#)
            try await store.expect(1, "create", "todos", #"{"id":"a"}"#)   // already exists

            let badDuration = try await store.expect(64, "sync", "--every", "soon")
            #expect(badDuration.stderr.contains("soon"))
            try await store.expect(64, "sync", "--every", "0s")
            try await store.expect(64, "sync", "--every", "-5m")
            try await store.expect(64, "sync", "--times", "2")

            #expect(try await store.queue() == before)
            #expect(try await store.expect(0, "get", "todos", "a").json() == ["id": "a", "title": "keep"])
        }
    }

    @Test func localOnlyCollectionsNeverQueue() async throws {
        try await CLIWorkspace.with { workspace in
            let store = try await workspace.store().initialiseOffline(deferred: false, collections: [])
            try await store.expect(0, "collection", "add", "drafts", "--local-only")
            try await store.expect(0, "create", "drafts", #"{"text":"mine"}"#, "--id", "d")
            #expect(try await store.expect(0, "get", "drafts", "d", "--all").json()["state"] == "synced")
            #expect(try await store.queue().isEmpty)
        }
    }
}
