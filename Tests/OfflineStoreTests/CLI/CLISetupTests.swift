import Foundation
import OfflineStore
import Testing

/// `init`, `collection add/list`, the store path, help and usage errors (no server needed).
@Suite("CLI setup")
struct CLISetupTests {
    @Test func initRecordsTheSettingsButNeverTheSecret() async throws {
        try await CLIWorkspace.with { workspace in
            let store = workspace.store()
            let server = CLIKinto.unreachableURL()
            let result = try await store.expect(0, "init", "--server", server, "--bucket", "shop", "--user", "alice",
                                                "--password-env", "CLI_PASSWORD", "--deferred",
                                                environment: ["CLI_PASSWORD": "s3cret-value"])
            let settings = try result.json()
            #expect(settings["server"] == .string(server))
            #expect(settings["bucket"] == "shop")
            #expect(settings["backend"] == "kinto")
            #expect(settings["user"] == "alice")
            #expect(settings["passwordEnv"] == "CLI_PASSWORD")
            #expect(settings["tokenEnv"] == .null)
            #expect(settings["writeMode"] == "deferred")

            // The store file and its write-ahead log hold the variable's name, never its value.
            let file = try [store.path, store.path + "-wal"].filter(FileManager.default.fileExists).reduce(into: Data()) {
                $0.append(try Data(contentsOf: URL(fileURLWithPath: $1)))
            }
            #expect(file.range(of: Data("s3cret-value".utf8)) == nil, "the secret must not be stored")
            #expect(file.range(of: Data("CLI_PASSWORD".utf8)) != nil)

            let status = try await store.expect(0, "status").json()
            #expect(status["server"] == .string(server))
            #expect(status["writeMode"] == "deferred")
            #expect(status["objects"] == 0)
            #expect(status["lastSync"] == .null)

            // A second init is refused unless --force.
            let again = try await store.expect(1, "init", "--server", server)
            #expect(again.stderr.contains("already initialised"))
            try await store.expect(0, "init", "--server", server, "--token-env", "TOKEN", "--force")
            #expect(try await store.expect(0, "status").json()["writeMode"] == "immediate")
        }
    }

    @Test func initRefusesBadSettings() async throws {
        try await CLIWorkspace.with { workspace in
            let store = workspace.store()
            let cases: [[String]] = [
                ["init", "--server", "not a url"],
                ["init", "--server", "ftp://127.0.0.1/v1"],
                ["init", "--server", "http://bob:pw@127.0.0.1:1/v1"],
                ["init", "--server", "http://127.0.0.1:1/v1", "--bucket", "../x"],
                ["init", "--server", "http://127.0.0.1:1/v1", "--user", "alice"],
                ["init", "--server", "http://127.0.0.1:1/v1", "--token-env", "T", "--password-env", "P", "--user", "a"],
                ["init", "--server", "http://127.0.0.1:1/v1", "--token-env", "1BAD"],
                ["init", "--server", "http://127.0.0.1:1/v1", "--backend", "couchdb"],
            ]
            for arguments in cases {
                let result = try await workspace.run(arguments + ["--store", store.path])
                #expect(result.status == 64, "\(result)")
            }
            #expect(!FileManager.default.fileExists(atPath: store.path), "a refused init creates nothing")
        }
    }

    @Test func collectionsAreAddedAndListed() async throws {
        try await CLIWorkspace.with { workspace in
            let store = try await workspace.store().initialiseOffline(collections: [])
            let added = try await store.expect(0, "collection", "add", "todos", "--update-policy", "update-if-online",
                                               "--conflict-policy", "merge").json()
            #expect(added == ["name": "todos", "updatePolicy": "update-if-online", "conflictPolicy": "merge", "localOnly": false, "schemaVersion": 1])
            try await store.expect(0, "collection", "add", "drafts", "--local-only", "--conflict-policy", "client-wins")
            try await store.expect(0, "collection", "add", "notes")
            let list = try await store.expect(0, "collection", "list").json()
            #expect(list == [
                ["name": "drafts", "updatePolicy": "queue-if-offline", "conflictPolicy": "client-wins", "localOnly": true, "schemaVersion": 1],
                ["name": "notes", "updatePolicy": "queue-if-offline", "conflictPolicy": "preserve", "localOnly": false, "schemaVersion": 1],
                ["name": "todos", "updatePolicy": "update-if-online", "conflictPolicy": "merge", "localOnly": false, "schemaVersion": 1],
            ])
            // Kinto refuses such a name; a local-only collection may have it.
            let bad = try await store.expect(1, "collection", "add", "my todos")
            #expect(bad.stderr.contains("my todos"))
            try await store.expect(0, "collection", "add", "my drafts", "--local-only")
            try await store.expect(64, "collection", "add", "x", "--conflict-policy", "coin-toss")
        }
    }

    @Test func theStorePathComesFromTheOptionTheEnvironmentOrTheDefault() async throws {
        try await CLIWorkspace.with { workspace in
            let server = CLIKinto.unreachableURL()
            // Default: ./offline-store.sqlite in the working directory.
            let byDefault = try await workspace.run(["init", "--server", server])
            #expect(byDefault.status == 0, "\(byDefault)")
            #expect(FileManager.default.fileExists(atPath: workspace.directory.path("offline-store.sqlite")))
            // $OFFLINE_STORE overrides the default; --store (before or after the command) overrides both.
            let env = ["OFFLINE_STORE": workspace.directory.path("env.sqlite")]
            #expect(try await workspace.run(["init", "--server", server], environment: env).status == 0)
            #expect(FileManager.default.fileExists(atPath: workspace.directory.path("env.sqlite")))
            let explicit = workspace.directory.path("explicit.sqlite")
            #expect(try await workspace.run(["--store", explicit, "init", "--server", server], environment: env).status == 0)
            #expect(try await workspace.run(["collection", "add", "a", "--store", explicit]).status == 0)
            let listed = try await workspace.run(["collection", "list"], environment: ["OFFLINE_STORE": explicit])
            #expect(try listed.json().arrayValue?.count == 1)
        }
    }

    @Test func aMissingStoreIsAnError() async throws {
        try await CLIWorkspace.with { workspace in
            let result = try await workspace.store("nothing").expect(1, "status")
            #expect(result.stderr.contains("no store at"))
            #expect(result.stdoutLines.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: workspace.directory.path("nothing.sqlite")))
        }
    }

    @Test func helpDocumentsTheExitCodes() async throws {
        try await CLIWorkspace.with { workspace in
            let help = try await workspace.run(["--help"])
            #expect(help.status == 0)
            let text = help.stdoutLines.joined(separator: "\n")
            for code in ["0 ", "1 ", "3 ", "4 ", "5 ", "6 ", "64"] {
                #expect(text.contains("\n  \(code)"), "exit code \(code) is not documented in --help")
            }
            #expect(try await workspace.run(["frobnicate"]).status == 64)
            #expect(try await workspace.run(["create"]).status == 64)
        }
    }
}
