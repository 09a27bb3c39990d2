import Foundation
import OfflineStore
import OfflineStoreCommandLine
import Testing

/// The `offline-store` tool on the OData backend: `init --backend odata [--odata FILE]`, the
/// settings file's checks, `collection add` against `$metadata`, and a sync through the tool
/// against both modes of the fixture service.
@Suite("CLI on the OData backend")
struct CLIODataTests {
    static let environment = ["ODATA_PASSWORD": "writer"]

    static func initialise(_ store: CLIStore, server: String, extra: [String] = []) async throws -> CLIResult {
        try await store.workspace.run(["init", "--backend", "odata", "--server", server, "--user", "writer",
                                       "--password-env", "ODATA_PASSWORD", "--deferred"] + extra + ["--store", store.path],
                                      environment: environment)
    }

    // MARK: The settings file (pure)

    @Test func theSettingsFileGivesEachEntitySetItsSettings() throws {
        let document = try JSONValue(parsing: #"""
            {"Tasks": {"changedSince": "ModifiedAt", "changedSinceMarginSeconds": 2.5, "batchSize": 20, "sweepEvery": 5},
             "Orders": {}, "Customers": {"changedSince": null, "batchSize": null}}
            """#)
        let sets = try ODataSettingsFile.settings(document, source: "--odata shop.json")
        #expect(sets["Tasks"] == ODataEntitySetSettings(changedSince: "ModifiedAt", changedSinceMargin: .milliseconds(2500),
                                                        batchSize: 20, sweepEvery: 5))
        #expect(sets["Orders"] == ODataEntitySetSettings())
        #expect(sets["Customers"] == ODataEntitySetSettings())
        #expect(try ODataSettingsFile.settings([:], source: "x").isEmpty)
    }

    @Test(arguments: [
        (#"{"Tasks": {"changedSinse": "ModifiedAt"}}"#, "Tasks.changedSinse is not a setting"),
        (#"{"Tasks": {"batchSize": "20"}}"#, "Tasks.batchSize must be a whole number"),
        (#"{"Tasks": {"batchSize": 0}}"#, "Tasks.batchSize must be a whole number"),
        (#"{"Tasks": {"batchSize": 2.5}}"#, "Tasks.batchSize must be a whole number"),
        (#"{"Tasks": {"sweepEvery": 0}}"#, "Tasks.sweepEvery must be"),
        (#"{"Tasks": {"sweepEvery": null}}"#, "Tasks.sweepEvery must be"),
        (#"{"Tasks": {"changedSinceMarginSeconds": -1}}"#, "Tasks.changedSinceMarginSeconds must be"),
        (#"{"Tasks": {"changedSinceMarginSeconds": true}}"#, "Tasks.changedSinceMarginSeconds must be"),
        (#"{"Tasks": {"changedSince": 3}}"#, "Tasks.changedSince must be a property name"),
        (#"{"Tasks": {"changedSince": "Modified At"}}"#, "Tasks.changedSince must be a property name"),
        (#"{"Tasks": 1}"#, "Tasks must be an object"),
        (#"{"Ta sks": {}}"#, "\"Ta sks\" is not an entity-set name"),
        (#"[]"#, "must be a JSON object of entity-set names"),
    ])
    func aBadSettingIsAUsageErrorNamingTheKeyAndTheFile(text: String, message: String) throws {
        let document = try JSONValue(parsing: text)
        do {
            _ = try ODataSettingsFile.settings(document, source: "--odata shop.json")
            Issue.record("\(text) was accepted")
        } catch let error as CLIError {
            #expect(error.exitCode == ExitStatus.usage)
            #expect(error.message.hasPrefix("--odata shop.json: "), "\(error.message)")
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    // MARK: init and collection add (no server needed)

    @Test func initRecordsTheODataSettingsAndNeverTheSecret() async throws {
        try await CLIWorkspace.with { workspace in
            let file = workspace.directory.path("odata.json")
            try Data(#"{"Tasks": {"changedSince": "ModifiedAt", "sweepEvery": 3}}"#.utf8).write(to: URL(fileURLWithPath: file))
            let store = workspace.store()
            let server = "http://127.0.0.1:\(KintoServer.closedPort())/odata"
            let result = try await workspace.run(["init", "--backend", "odata", "--server", server, "--user", "writer",
                                                  "--password-env", "ODATA_PASSWORD", "--odata", file, "--store", store.path],
                                                 environment: ["ODATA_PASSWORD": "s3cret-value"])
            #expect(result.status == 0, "\(result)")
            let settings = try result.json()
            #expect(settings["backend"] == "odata" && settings["server"] == .string(server))
            #expect(settings["odata"] == ["Tasks": ["changedSince": "ModifiedAt", "sweepEvery": 3]])
            #expect(settings["passwordEnv"] == "ODATA_PASSWORD")
            try FileManager.default.removeItem(atPath: file)   // recorded: the file is not needed afterwards

            // Offline, collection add adds the set with a note that it was not checked.
            let added = try await store.expect(0, "collection", "add", "Tasks")
            #expect(try added.json()["name"] == "Tasks")
            #expect(added.stderr.contains("offline-store: entity set 'Tasks' was not checked"), "\(added)")
            let stored = try Data(contentsOf: URL(fileURLWithPath: store.path))
            #expect(stored.range(of: Data("s3cret-value".utf8)) == nil)

            // A command that talks to the service needs the secret named at init.
            let refused = try await store.expect(6, "sync", environment: ["ODATA_PASSWORD": ""])
            #expect(refused.stderr.contains("ODATA_PASSWORD"), "\(refused)")
            // Without --odata the settings are empty; --force rewrites them.
            let plain = try await store.expect(0, "init", "--backend", "odata", "--server", server, "--force")
            #expect(try plain.json()["odata"] == [:])
        }
    }

    @Test func aBadODataInitIsAUsageErrorAndCreatesNothing() async throws {
        try await CLIWorkspace.with { workspace in
            let store = workspace.store()
            let server = "http://127.0.0.1:1/odata"
            let unknown = workspace.directory.path("unknown.json")
            try Data(#"{"Tasks": {"batchsize": 20}}"#.utf8).write(to: URL(fileURLWithPath: unknown))
            let notJSON = workspace.directory.path("broken.json")
            try Data("{".utf8).write(to: URL(fileURLWithPath: notJSON))
            let named = try await workspace.run(["init", "--backend", "odata", "--server", server, "--odata", unknown,
                                                 "--store", store.path])
            #expect(named.status == 64, "\(named)")
            #expect(named.stderr.contains("--odata \(unknown): Tasks.batchsize is not a setting"), "\(named)")
            let cases: [[String]] = [
                ["--backend", "odata", "--odata", notJSON],
                ["--backend", "odata", "--odata", workspace.directory.path("missing.json")],
                ["--backend", "kinto", "--odata", unknown],
                ["--backend", "odata", "--resources", unknown],
            ]
            for arguments in cases {
                let result = try await workspace.run(["init", "--server", server] + arguments + ["--store", store.path])
                #expect(result.status == 64, "\(result)")
            }
            #expect(!FileManager.default.fileExists(atPath: store.path), "a refused init creates nothing")
        }
    }

    // MARK: Against the fixture

    @Test(.liveServer, arguments: ODataServer.Mode.allCases)
    func collectionAddChecksTheNameAgainstTheMetadata(mode: ODataServer.Mode) async throws {
        try await CLIWorkspace.with { workspace in
            let store = workspace.store()
            let result = try await Self.initialise(store, server: try ODataServer.url(mode).absoluteString)
            try #require(result.status == 0, "\(result)")
            let added = try await store.expect(0, "collection", "add", "Tasks", environment: Self.environment)
            #expect(!added.stderr.contains("not checked"), "\(added)")
            let unknown = try await store.expect(1, "collection", "add", "Widgets", environment: Self.environment)
            #expect(unknown.stderr.contains("no entity set 'Widgets' (its sets: Customers, Orders, Tasks)"), "\(unknown)")
            try await store.expect(0, "collection", "add", "Widgets", "--local-only")
            let names = try await store.expect(0, "collection", "list").json().arrayValue?.compactMap { $0["name"]?.stringValue }
            #expect(names == ["Tasks", "Widgets"])
        }
    }

    /// Waits for the backend (odata-backend): with the contract's stubs, `sync` fails with exit 1.
    @Test(.liveServer, .timeLimit(.minutes(3)), arguments: ODataServer.Mode.allCases)
    func aSyncThroughTheToolReachesAnotherStore(mode: ODataServer.Mode) async throws {
        try await CLIWorkspace.with { workspace in
            let server = try ODataServer.url(mode).absoluteString
            let (writer, reader) = (workspace.store("writer"), workspace.store("reader"))
            for store in [writer, reader] {
                try #require(try await Self.initialise(store, server: server).status == 0)
                try await store.expect(0, "collection", "add", "Tasks", environment: Self.environment)
            }
            let title = ODataServer.uniqueTitle("cli-sync")
            let id = UUID().uuidString.lowercased()
            try await writer.expect(0, "create", "Tasks", #"{"Title":"\#(title)","Priority":2}"#, "--id", id)
            let sync = try await writer.run("sync", environment: Self.environment)
            try #require(sync.status == 0, "\(sync)")
            let pushed = try sync.json()
            #expect(pushed["pushed"] == 1 && pushed["pending"] == 0, "\(pushed)")
            #expect(try await ODataServer.request(mode, "GET", "Tasks(\(id))").json?["Title"] == .string(title))

            try await reader.expect(0, "refresh", environment: Self.environment)
            let read = try await reader.expect(0, "get", "Tasks", id).json()
            #expect(read["Title"] == .string(title) && read["Priority"] == 2, "\(read)")

            // A deletion reaches the other store: by @removed in delta mode, by absence in plain mode.
            try await writer.expect(0, "delete", "Tasks", id)
            try await writer.expect(0, "sync", environment: Self.environment)
            #expect(try await ODataServer.request(mode, "GET", "Tasks(\(id))").status == 404)
            try await reader.expect(0, "refresh", environment: Self.environment)
            try await reader.expect(3, "get", "Tasks", id)
        }
    }
}
