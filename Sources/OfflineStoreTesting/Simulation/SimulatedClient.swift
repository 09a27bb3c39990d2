import Foundation
import Logging
import OfflineStore

/// One simulated app: a store file, the process that has it open now (a kill ends one and
/// the next opens the same file), and what the app was told its edits are.
final class SimulatedClient: @unchecked Sendable {
    // @unchecked: used by the simulation's driving thread and the client tasks that run on
    // the simulation executor, which is that same thread.

    /// The app's last acknowledged edit of an object, and what the server must show for it.
    struct Intent {
        /// The object the app saved; nil for a delete.
        var value: JSONValue?
        /// When the edit was acknowledged (simulated milliseconds).
        var madeAt: Int64
        /// For a delete: whether it left a delete in the queue (a delete of an object whose
        /// create was never sent leaves nothing to send).
        var queuedDelete: Bool
    }

    let index: Int
    let name: String
    let path: String
    let policy: ConflictPolicy
    /// The ids only this client edits.
    let privateIDs: [String]
    private(set) var store: ObjectStore
    private(set) var incarnation: Int
    /// The app's outstanding intent per object id (dropped when the app keeps the server's copy).
    var intents: [String: Intent] = [:]
    /// How many edits this client made: the next value's number.
    var edits = 0
    /// The report of the last sync run, or the error that stopped it.
    var lastRun: Result<SyncReport, OfflineStoreError>?

    private let open: @Sendable (String, Int) throws -> (ObjectStore, Int)

    /// Opens the client's store; `open` opens a store at a path for client index, returning it and its incarnation.
    init(index: Int, directory: URL, policy: ConflictPolicy, privateIDs: Int,
         open: @escaping @Sendable (String, Int) throws -> (ObjectStore, Int)) throws {
        self.index = index
        name = "c\(index + 1)"
        self.privateIDs = (0..<privateIDs).map { "c\(index + 1)-p\($0 + 1)" }
        path = directory.appendingPathComponent("\(name).sqlite").path
        self.policy = policy
        self.open = open
        (store, incarnation) = try open(path, index)
    }

    /// The process dies between two steps: its store is closed under it (so the rest of
    /// its run writes nothing) and its waiting calls end; ``reopen()`` starts the next one.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func kill(network: SimulatedNetwork) {
        try? store.close()
        network.kill(incarnation: incarnation)
    }

    /// Opens the file again in a new process.
    func reopen() throws {
        (store, incarnation) = try open(path, index)
    }

    /// The object's value as the app reads it.
    func value(of id: String, in collection: String) -> JSONValue? {
        (try? store.collection(collection).find(id)) ?? nil
    }

    /// Whether the object has a server copy here.
    func hasServerCopy(_ id: String, in collection: String) -> Bool {
        ((try? store.collection(collection).persistent(id)) ?? nil) != nil
    }

    /// The store's configuration for a simulated client.
    static func configuration(base: ObjectStore.Configuration, date: ManualDate) -> ObjectStore.Configuration {
        var configuration = base
        configuration.writeMode = .deferred
        configuration.now = date.now
        configuration.externalChangeInterval = nil
        configuration.logger = Logger(label: "OfflineStore.simulation") { _ in SwiftLogNoOpLogHandler() }
        return configuration
    }
}
