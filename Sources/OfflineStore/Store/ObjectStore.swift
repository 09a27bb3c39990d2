import Foundation

/// An offline-first object store in one SQLite file: objects with a persistent (server)
/// and a local copy, and a durable queue of pending operations.
///
/// ```swift
/// let store = try ObjectStore(path: "app.sqlite")
/// try store.register(CollectionDescriptor("todos"))
/// let todo = try await store.collection("todos").create(["title": "Buy milk"])
/// ```
///
/// One serialized writer and concurrent readers (SQLite WAL through GRDB's
/// `DatabasePool`); every edit writes its object row and its queue entry in one
/// transaction. Safe to share between tasks. ``inMemory(configuration:backend:)`` makes a
/// store that behaves the same and keeps nothing (previews, unit tests).
public final class ObjectStore: Sendable {
    /// The store file's path; ":memory:" for an in-memory store.
    public let path: String
    /// Whether the store lives in memory only (``inMemory(configuration:backend:)``).
    public let isInMemory: Bool
    /// The configuration the store was opened with.
    public let configuration: Configuration
    /// The backend that `flush`, `refresh` and immediate writes talk to; nil for a local store.
    public let backend: (any Backend)?

    /// The database and its transactions: the one owner of SQL.
    let local: LocalStore
    /// The app's edits: checks, the object row and queue entry, coalescing, immediate mode.
    let editEngine: EditEngine
    /// Flush, refresh, sync, fetch, resets and sync scopes, under the store file's sync lock.
    let syncEngine: SyncEngine
    /// Whether the app forced the store offline.
    let connectivity: Connectivity
    /// Observers of object changes, sync events, commits and value observations.
    let observers: StoreObservers

    /// Opens (or creates) the store at `path`, migrating its schema.
    ///
    /// - Parameters:
    ///   - path: the SQLite file; created with permissions 0600 when missing.
    ///   - configuration: behaviour and defaults.
    ///   - backend: the server to sync with; nil keeps the store local (every edit queues).
    /// - Throws: ``OfflineStoreError`` with code `notADatabase`, `corrupted`, `locked`
    ///   (another writer held the lock past ``Configuration/busyTimeout``) or `schemaTooNew`.
    public convenience init(path: String, configuration: Configuration = Configuration(),
                            backend: (any Backend)? = nil) throws {
        try self.init(opening: .file(path), configuration: configuration, backend: backend)
    }

    /// Opens a store that lives in memory only: for SwiftUI previews, unit tests, or data
    /// that must not outlive the process.
    ///
    /// It behaves as a file store does — the same schema, queue, sync, observation, size
    /// limit and errors — with two differences: nothing is kept once the store is closed or
    /// released, and reads wait for a running write instead of running beside it (one
    /// connection, GRDB's `DatabaseQueue`, rather than a WAL `DatabasePool`). Blob files go
    /// to a temporary directory of their own, removed by ``close()`` or when the store is
    /// released.
    ///
    /// ```swift
    /// let store = try ObjectStore.inMemory()
    /// try store.register(CollectionDescriptor("todos"))
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: behaviour and defaults (``Configuration/prepareDatabase`` runs too;
    ///     ``Configuration/busyTimeout`` does not matter with one connection).
    ///   - backend: the server to sync with; nil keeps the store local (every edit queues).
    /// - Throws: ``OfflineStoreError`` `storage` when SQLite cannot open the database.
    public static func inMemory(configuration: Configuration = Configuration(),
                                backend: (any Backend)? = nil) throws -> ObjectStore {
        try ObjectStore(opening: .inMemory(), configuration: configuration, backend: backend)
    }

    /// Opens the store at `location`, migrates its schema and composes its parts.
    init(opening location: StoreLocation, configuration: Configuration, backend: (any Backend)?) throws {
        self.path = location.path
        self.isInMemory = location.isInMemory
        self.configuration = configuration
        self.backend = backend
        let registry = CollectionRegistry(), observers = StoreObservers(), connectivity = Connectivity()
        self.observers = observers
        self.connectivity = connectivity
        let local = try LocalStore(opening: location, configuration: configuration, collections: registry, observers: observers)
        self.local = local
        try CollectionsTable.load(into: registry, from: local)
        syncEngine = SyncEngine(local: local, backend: backend, configuration: configuration, observers: observers,
                                lock: try SyncLock(location, configuration), connectivity: connectivity)
        editEngine = EditEngine(local: local, sync: syncEngine, configuration: configuration, connectivity: connectivity)
    }

    /// Closes the store; later calls fail with ``OfflineStoreError/Code/closed``. The background
    /// sender's running flush is cancelled (its edits stay queued) and every observation ends.
    ///
    /// - Throws: ``OfflineStoreError`` when SQLite cannot close cleanly.
    public func close() throws {
        syncEngine.sender.close()
        observers.finishStreams()
        try local.close()
    }

    /// Forces the store offline (true) or lets it try the network again (false).
    ///
    /// While forced offline, immediate writes queue (or fail under `updateIfOnline`)
    /// without trying the network, and `flush` reports the server unreachable.
    public func setOffline(_ offline: Bool) {
        connectivity.setForcedOffline(offline)
    }

    /// Whether the store was forced offline with ``setOffline(_:)``.
    public var isForcedOffline: Bool { connectivity.isForcedOffline }

    /// A handle on a registered collection.
    public func collection(_ name: String) -> ObjectCollection {
        ObjectCollection(store: self, name: name)
    }
}
