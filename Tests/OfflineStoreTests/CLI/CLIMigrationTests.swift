import Foundation
import OfflineStore
import Testing

/// `collection add NAME --schema-version N --rename/--add-field/--remove-field` against the
/// real Kinto: the stored copies and a queued edit are migrated at once, the steps are kept
/// with the collection, so a later `offline-store` process brings a record that an older
/// client writes in the old shape to the new one, and bad steps are usage errors.
@Suite("CLI migrations")
struct CLIMigrationTests {
    @Test(.liveServer) func stepsFromTheCommandLineMigrateTheStoreAndEveryLaterPull() async throws {
        try await CLIWorkspace.with { workspace in
            let a = try await workspace.store("a").initialise()
            let old = try await workspace.store("old").initialise()  // a client still on the first shape
            try await old.expect(0, "create", "todos", #"{"name":"alpha","legacy":1}"#, "--id", "t1")
            try await old.expect(0, "sync")
            #expect(try await a.expect(0, "refresh").json()["pulled"] == 1)
            try await a.expect(0, "create", "todos", #"{"name":"beta","legacy":2}"#, "--id", "t2")  // queued (deferred)

            let added = try await a.expect(0, "collection", "add", "todos", "--schema-version", "2", "--rename", "name:title",
                                           "--add-field", "priority=0", "--remove-field", "legacy").json()
            #expect(added["schemaVersion"] == 2)
            #expect(added["migrations"] == [#"renameField("name", to: "title", in: 2)"#, #"addField("priority", default: 0, in: 2)"#,
                                            #"removeField("legacy", in: 2)"#])
            #expect(try await a.expect(0, "get", "todos", "t1").json() == ["id": "t1", "title": "alpha", "priority": 0])
            #expect(try await a.expect(0, "get", "todos", "t2").json() == ["id": "t2", "title": "beta", "priority": 0])

            // The queued create goes out in the new shape; the record only read is not pushed.
            #expect(try await a.expect(0, "sync").json()["pushed"] == 1)
            #expect(try await old.expect(0, "refresh").json()["pulled"] == 1)
            #expect(try await old.expect(0, "get", "todos", "t2").json() == ["id": "t2", "title": "beta", "priority": 0])
            #expect(try await old.expect(0, "get", "todos", "t1").json()["name"] == "alpha")

            // The older client writes in its shape; a's next process reads it in the new one.
            try await old.expect(0, "create", "todos", #"{"name":"gamma","legacy":3}"#, "--id", "t3")
            try await old.expect(0, "sync")
            #expect(try await a.expect(0, "refresh").json()["pulled"] == 1)
            #expect(try await a.expect(0, "list", "todos", "--where", "title=gamma").json()
                    == [["id": "t3", "title": "gamma", "priority": 0]])

            // A re-add without a version keeps the version and the steps.
            let kept = try await a.expect(0, "collection", "add", "todos", "--conflict-policy", "merge").json()
            #expect(kept["schemaVersion"] == 2 && kept["migrations"]?.arrayValue?.count == 3)

            // Bad steps are usage errors that change nothing.
            try await a.expect(64, "collection", "add", "todos", "--schema-version", "3", "--rename", "title")
            try await a.expect(64, "collection", "add", "todos", "--rename", "title:heading")
            try await a.expect(64, "collection", "add", "todos", "--schema-version", "2", "--add-field", "due=null")
            try await a.expect(64, "collection", "add", "todos", "--schema-version", "3", "--add-field", "=1")
            try await a.expect(64, "collection", "add", "todos", "--schema-version", "1")
            #expect(try await a.expect(0, "collection", "list").json().arrayValue?.first { $0["name"] == "todos" }?["schemaVersion"] == 2)
        }
    }
}
