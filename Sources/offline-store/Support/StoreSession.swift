import Foundation
import OfflineStore
import OfflineStoreCommandLine

/// What a command needs from the server, decided before the store is opened for real.
enum ServerUse {
    /// Local only (reads, queue and conflict actions): the secret is not read.
    case never
    /// Talks to the server (flush, refresh, sync): the settings and the secret must be there.
    case required
    /// An edit of this collection: needs the server in immediate write mode or under
    /// `update-if-online`, unless the collection is local-only.
    case edit(collection: String)
}

/// An open store with the settings `init` recorded, for one command.
struct StoreSession {
    let store: ObjectStore
    let settings: CLISettings?

    /// Opens the store at `options.path` with the recorded write mode and backend, runs
    /// `body`, and closes it.
    ///
    /// - Throws: ``CLIError`` when the file is missing (1), the server is needed but not
    ///   configured (1) or its secret's variable is unset (6); the library's errors.
    static func with<T>(_ options: GlobalOptions, server use: ServerUse,
                        _ body: (StoreSession) async throws -> T) async throws -> T {
        let session = try open(options, server: use)
        defer { try? session.store.close() }
        return try await body(session)
    }

    static func open(_ options: GlobalOptions, server use: ServerUse) throws -> StoreSession {
        let path = options.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw CLIError("no store at \(path): create it with `offline-store init --server URL`")
        }
        // The settings and the collections decide how to open the store: read them first.
        let probe = try ObjectStore(path: path)
        let settings: CLISettings?
        let needsServer: Bool
        do {
            settings = try CLISettings.load(from: probe)
            needsServer = try Self.needsServer(use, settings: settings, probe: probe)
            try probe.close()
        } catch {
            try? probe.close()
            throw error
        }
        let environment = ProcessInfo.processInfo.environment
        if needsServer {
            guard let settings else {
                throw CLIError("the store at \(path) has no server: run `offline-store init --server URL --force`")
            }
            if let problem = settings.missingSecret(in: environment) {
                throw CLIError(problem, exitCode: ExitStatus.unauthorized)
            }
        }
        var configuration = ObjectStore.Configuration()
        // The CLI's immediate mode waits for the server, so an edit's exit code says what the
        // server did (Docs/CLI.md); the library's immediate mode would return before it answered.
        configuration.writeMode = settings.map { $0.writeMode == .deferred ? .deferred : .awaitingServer } ?? .deferred
        let store = try ObjectStore(path: path, configuration: configuration,
                                    backend: try settings?.makeBackend(environment: environment))
        return StoreSession(store: store, settings: settings)
    }

    private static func needsServer(_ use: ServerUse, settings: CLISettings?, probe: ObjectStore) throws -> Bool {
        switch use {
        case .never: return false
        case .required: return true
        case .edit(let name):
            let descriptor = try probe.descriptor(of: name)
            guard !descriptor.isLocalOnly, let settings else { return false }
            return settings.writeMode == .immediate || descriptor.updatePolicy == .updateIfOnline
        }
    }

    /// A registered collection's handle.
    ///
    /// - Throws: `unknownCollection` (exit 1) naming it.
    func collection(_ name: String) throws -> ObjectCollection {
        _ = try store.descriptor(of: name)
        return store.collection(name)
    }
}
