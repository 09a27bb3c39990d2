import Foundation
import GRDB
import OfflineStore
import Testing

/// The real Kinto the CLI tests run against (``KintoServer/url()``; scripts/test starts it).
enum CLIKinto {
    /// The base URL (`…/v1`); throws when `KINTO_URL` is unset: the tests never skip silently.
    static func url() throws -> String {
        try KintoServer.url().absoluteString
    }

    /// A fresh bucket name, so tests run in parallel without seeing each other's data.
    static func uniqueBucket() -> String { "cli" + String(UInt64.random(in: .min ... .max), radix: 16) }

    /// The URL of a server that is not there: a port on 127.0.0.1 bound, then closed.
    static func unreachableURL() -> String {
        "http://127.0.0.1:\(KintoServer.closedPort())/v1"
    }
}

/// A temporary directory for one test's store files, removed afterwards.
struct CLIWorkspace: Sendable {
    let directory: TemporaryDirectory
    /// The Kinto bucket the test's stores share.
    let bucket = CLIKinto.uniqueBucket()

    /// Runs `body` with a new workspace, removed afterwards whatever happens.
    static func with<T>(_ body: (CLIWorkspace) async throws -> T) async throws -> T {
        try await withTemporaryDirectory { directory in try await body(CLIWorkspace(directory: directory)) }
    }

    /// A store file of this workspace (not created until `initialise`).
    func store(_ name: String = "store") -> CLIStore {
        CLIStore(workspace: self, path: directory.path("\(name).sqlite"))
    }

    /// Runs the CLI in the workspace directory with exactly these arguments.
    func run(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> CLIResult {
        try await start(arguments, environment: extra).finish()
    }

    /// Starts the CLI (or `executable`, e.g. a wrapper around it); the environment is the
    /// test's, without `OFFLINE_STORE`, plus `extra`; standard error to `stderrTerminal` when given.
    func start(_ arguments: [String], environment extra: [String: String] = [:], executable: URL? = nil,
               stderrTerminal: String? = nil) throws -> CLIProcess {
        var environment = ProcessInfo.processInfo.environment
        environment["OFFLINE_STORE"] = nil
        environment["CLI_PASSWORD"] = "secret"
        environment.merge(extra) { _, new in new }
        return try CLIProcess(arguments, environment: environment, directory: directory.url, executable: executable,
                              stderrTerminal: stderrTerminal)
    }
}

/// One store file driven through the CLI.
struct CLIStore: Sendable {
    let workspace: CLIWorkspace
    let path: String

    /// Runs `offline-store ARGS --store PATH`.
    @discardableResult
    func run(_ arguments: String..., environment: [String: String] = [:]) async throws -> CLIResult {
        try await workspace.run(arguments + ["--store", path], environment: environment)
    }

    /// Like ``run(_:environment:)`` but fails the test unless the exit status is `status`.
    @discardableResult
    func expect(_ status: Int32, _ arguments: String..., environment: [String: String] = [:],
                sourceLocation: SourceLocation = #_sourceLocation) async throws -> CLIResult {
        let result = try await workspace.run(arguments + ["--store", path], environment: environment)
        #expect(result.status == status, "\(result)", sourceLocation: sourceLocation)
        return result
    }

    /// `init` with basic auth (alice, `$CLI_PASSWORD`) on `server` (default: the real Kinto),
    /// then `collection add` for each collection.
    @discardableResult
    func initialise(server: String? = nil, deferred: Bool = true, collections: [String] = ["todos"],
                    extra: [String] = []) async throws -> CLIStore {
        var arguments = ["init", "--server", try server ?? CLIKinto.url(), "--bucket", workspace.bucket]
        arguments += extra.isEmpty ? ["--user", "alice", "--password-env", "CLI_PASSWORD"] : extra
        if deferred { arguments.append("--deferred") }
        let result = try await workspace.run(arguments + ["--store", path])
        try #require(result.status == 0, "\(result)")
        for name in collections { try await expect(0, "collection", "add", name) }
        return self
    }

    /// A store on a server that cannot be reached (no Kinto needed).
    @discardableResult
    func initialiseOffline(deferred: Bool = true, collections: [String] = ["todos"]) async throws -> CLIStore {
        try await initialise(server: CLIKinto.unreachableURL(), deferred: deferred, collections: collections)
    }

    /// The queue as `offline-store queue` prints it.
    func queue(sourceLocation: SourceLocation = #_sourceLocation) async throws -> [JSONValue] {
        try await expect(0, "queue", sourceLocation: sourceLocation).json().arrayValue ?? []
    }

    /// Runs SQL on the store file directly (to stage what the CLI cannot, e.g. a record the server refuses).
    func execute(sql: String, arguments: StatementArguments = []) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: sql, arguments: arguments) }
        try queue.close()
    }
}
