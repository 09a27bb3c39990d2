import Foundation
import GRDB
import Logging

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

    /// The database: a `DatabasePool` (WAL, concurrent reads) for a file, a `DatabaseQueue`
    /// for an in-memory store.
    let pool: any DatabaseWriter
    /// Where the store's blob files live: `<path>.blobs` next to a file store, a temporary
    /// directory (removed by ``close()``) for an in-memory store.
    let blobDirectory: URL
    let descriptors: Locked<[String: CollectionDescriptor]>
    let state: Locked<RuntimeState>
    let flushLock: SyncLock
    let runtime = StoreRuntime()
    /// The local edit path's statements, prepared once on the writer connection.
    let writerStatements = WriterStatements()

    struct RuntimeState {
        var isClosed = false
        var forcedOffline = false
    }

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

    /// Opens the store at `location` and migrates its schema.
    init(opening location: StoreLocation, configuration: Configuration, backend: (any Backend)?) throws {
        self.path = location.path
        self.isInMemory = location.isInMemory
        self.blobDirectory = location.blobDirectory
        self.configuration = configuration
        self.backend = backend
        self.flushLock = SyncLock(storePath: location.isInMemory ? nil : location.path)
        do {
            pool = try location.open(configuration)
            let migrator = StoreSchema.migrator
            try pool.write { db in
                if try migrator.hasBeenSuperseded(db) {
                    throw OfflineStoreError(.schemaTooNew, "the store at \(location.path) was written by a newer version of OfflineStore")
                }
            }
            try migrator.migrate(pool)
            // Reading the schema proves the file is a database even when nothing needed migrating.
            _ = try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            try location.protectFiles(configuration)
        } catch {
            throw OfflineStoreError.storage(error, while: "opening \(location.path)")
        }
        descriptors = Locked([:])
        state = Locked(RuntimeState())
        try loadDescriptors()
    }

    /// Closes the store; later calls fail with ``OfflineStoreError/Code/closed``.
    ///
    /// - Throws: ``OfflineStoreError`` when SQLite cannot close cleanly.
    public func close() throws {
        state.withLock { $0.isClosed = true }
        runtime.events.finish()
        runtime.changes.finish()
        do {
            // Statements still prepared would make SQLite refuse to close the connection.
            pool.writeWithoutTransaction { _ in writerStatements.removeAll() }
            try pool.close()
        } catch { throw OfflineStoreError.storage(error, while: "closing the store") }
        removeTemporaryBlobs()
    }

    deinit { removeTemporaryBlobs() }

    /// An in-memory store's blob files go with it; a file store's stay.
    private func removeTemporaryBlobs() {
        if isInMemory { try? FileManager.default.removeItem(at: blobDirectory) }
    }

    /// Forces the store offline (true) or lets it try the network again (false).
    ///
    /// While forced offline, immediate writes queue (or fail under `updateIfOnline`)
    /// without trying the network, and `flush` reports the server unreachable.
    public func setOffline(_ offline: Bool) {
        state.withLock { $0.forcedOffline = offline }
    }

    /// Whether the store was forced offline with ``setOffline(_:)``.
    public var isForcedOffline: Bool { state.withLock { $0.forcedOffline } }

    /// A handle on a registered collection.
    public func collection(_ name: String) -> ObjectCollection {
        ObjectCollection(store: self, name: name)
    }

    // MARK: - Database access with typed errors

    func write<T>(_ action: String, _ body: (Database) throws -> T) throws -> T {
        try writing(action, preparedTransaction: false, body)
    }

    /// A write of one app edit: like ``write(_:_:)``, but the transaction begins and commits
    /// with the writer's prepared statements (``WriterStatements``). GRDB's `inTransaction`
    /// parses `BEGIN` and `COMMIT` again for every transaction; that parsing and the edit
    /// savepoint this path no longer needs were a fifth of a durable single edit (callgrind).
    ///
    /// `body` must let every error escape (never catch one and carry on): GRDB's guard
    /// against statements running after SQLite rolled a failed transaction back on its
    /// own is armed by `inTransaction` only. On an error the transaction rolls back whole.
    func writeEdit<T>(_ action: String, _ body: (Database) throws -> T) throws -> T {
        try writing(action, preparedTransaction: true, body)
    }

    /// Runs `body` and the draining of its change log in one transaction (GRDB's, or begun
    /// and committed with the writer's prepared statements), maps errors to typed storage
    /// errors, and publishes the changes after the commit.
    private func writing<T>(_ action: String, preparedTransaction: Bool, _ body: (Database) throws -> T) throws -> T {
        try ensureOpen()
        var changes: [ObjectChange] = []
        func drained(_ db: Database) throws -> T {
            let result = try body(db)
            changes = try drainChangeLog(db)
            return result
        }
        let result: T
        do {
            if !preparedTransaction {
                result = try pool.write(drained)
            } else {
                result = try pool.writeWithoutTransaction { db in
                    try writerStatements.statement(.beginImmediate, in: db).execute()
                    do {
                        let result = try drained(db)
                        try writerStatements.statement(.commit, in: db).execute()
                        return result
                    } catch {
                        // As `inTransaction` does: roll back unless SQLite already did, throw the first error.
                        try? db.rollback()
                        throw error
                    }
                }
            }
        } catch { throw OfflineStoreError.storage(error, while: action) }
        publish(changes)
        return result
    }

    func read<T>(_ action: String, _ body: (Database) throws -> T) throws -> T {
        try ensureOpen()
        do { return try pool.read(body) } catch { throw OfflineStoreError.storage(error, while: action) }
    }

    private func ensureOpen() throws {
        if state.withLock({ $0.isClosed }) { throw OfflineStoreError(.closed, "the store was closed") }
    }
}
