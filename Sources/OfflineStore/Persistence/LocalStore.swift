import Foundation
import GRDB

/// The store's database: the one owner of its connections, its transactions and the
/// writer's prepared statements (``WriterStatements``).
///
/// Every read and write of the store goes through ``read(_:_:)`` and ``write(_:origin:_:)``
/// here; the SQL of each table lives with the table's type in this folder (``ObjectRow``,
/// ``QueueTable``, ``CollectionsTable``, ``MetaTable``, ``BlobTable``, ``ObjectKeyedTables``). A write
/// drains the object change log in its transaction and publishes the changes only after
/// the commit, so no observer ever hears of a write that rolled back, and no app code runs
/// while the writer is held.
final class LocalStore: Sendable {
    /// Where the store lives (its path, whether in memory, its blob directory).
    let location: StoreLocation
    let configuration: ObjectStore.Configuration
    /// The registered collections (shared with the facade and the sync engine).
    let collections: CollectionRegistry
    /// Observers of object changes and commits, and the change log's state.
    let observers: StoreObservers
    /// The database: a `DatabasePool` (WAL, concurrent reads) for a file, a `DatabaseQueue`
    /// for an in-memory store.
    let writer: any DatabaseWriter
    /// The local edit path's statements, prepared once on the writer connection.
    let writerStatements = WriterStatements()
    private let closed = Locked(false)

    /// Opens the database at `location` and migrates its schema.
    ///
    /// - Throws: ``OfflineStoreError`` `notADatabase`, `corrupted`, `locked` or `schemaTooNew`.
    init(opening location: StoreLocation, configuration: ObjectStore.Configuration,
         collections: CollectionRegistry, observers: StoreObservers) throws {
        self.location = location
        self.configuration = configuration
        self.collections = collections
        self.observers = observers
        var opened: (any DatabaseWriter)?
        do {
            writer = try location.open(configuration)
            opened = writer
            let migrator = StoreSchema.migrator
            try writer.write { db in
                if try migrator.hasBeenSuperseded(db) {
                    throw OfflineStoreError(.schemaTooNew, "the store at \(location.path) was written by a newer version of OfflineStore")
                }
            }
            try migrator.migrate(writer)
            // Reading the schema proves the file is a database even when nothing needed migrating.
            _ = try writer.read { db in try StoreSchema.tableCount(db) }
            // Other processes' commits are told apart from this moment on (ExternalChangeWatcher).
            if !location.isInMemory {
                observers.externalChanges.start(at: try writer.writeWithoutTransaction { db in try Self.dataVersion(db) })
            }
            try location.protectFiles(configuration)
            try StoreLocation.openReaders(of: writer, count: location.keptOpen(configuration).readers)
        } catch {
            // A failed open changed nothing (a migration rolls back whole).
            let failure = OfflineStoreError.storage(error, while: "opening \(location.path)").with(.unchanged)
            throw opened.map { Self.counted(failure, in: $0) } ?? failure
        }
    }

    /// A `corrupted` error with how many edits wait unsent, when the queue can still be read:
    /// what removing the store's data would lose (``OfflineStoreError/pendingEdits``).
    static func counted(_ error: OfflineStoreError, in writer: any DatabaseWriter) -> OfflineStoreError {
        guard error.code == .corrupted else { return error }
        return error.counting(pendingEdits: try? writer.read { db in try QueueTable.count(db) })
    }

    /// The blob files of this store.
    var blobFiles: BlobFiles { BlobFiles(directory: location.blobDirectory) }

    deinit { removeTemporaryBlobs() }

    /// An in-memory store's blob files go with it; a file store's stay.
    private func removeTemporaryBlobs() {
        if location.isInMemory { try? FileManager.default.removeItem(at: location.blobDirectory) }
    }

    /// Closes the database (an in-memory store's blob files go too); later reads and writes
    /// fail with `closed`.
    func close() throws {
        defer { removeTemporaryBlobs() }
        closed.withLock { $0 = true }
        endObservations()
        do {
            // Statements still prepared would make SQLite refuse to close the connection.
            writer.writeWithoutTransaction { _ in writerStatements.removeAll() }
            try writer.close()
        } catch { throw OfflineStoreError.storage(error, while: "closing the store") }
    }

    var isClosed: Bool { closed.withLock { $0 } }

    // MARK: - Transactions with typed errors

    /// Runs `body` in one write transaction; its object changes are published after the
    /// commit, marked with `origin`.
    func write<T>(_ action: String, origin: ChangeOrigin = .local, reasons: ChangeReasons? = nil,
                  _ body: (Database) throws -> T) throws -> T {
        try writing(action, origin: origin, reasons: reasons, preparedTransaction: false, body)
    }

    /// A write of one app edit: like ``write(_:origin:_:)``, but the transaction begins and
    /// commits with the writer's prepared statements (``WriterStatements``). GRDB's
    /// `inTransaction` parses `BEGIN` and `COMMIT` again for every transaction; that parsing
    /// and the edit savepoint this path no longer needs were a fifth of a durable single
    /// edit (callgrind).
    ///
    /// `body` must let every error escape (never catch one and carry on): GRDB's guard
    /// against statements running after SQLite rolled a failed transaction back on its
    /// own is armed by `inTransaction` only. On an error the transaction rolls back whole.
    ///
    /// `action` is built only for an error: an edit's names it (`saving todos/k`), and the
    /// interpolation cost about 1.7 k instructions of every durable edit (callgrind).
    func writeEdit<T>(_ action: @autoclosure () -> String, _ body: (Database) throws -> T) throws -> T {
        try writing(action(), origin: .local, reasons: nil, preparedTransaction: true, body)
    }

    /// Runs `body` and the draining of its change log in one transaction (GRDB's, or begun
    /// and committed with the writer's prepared statements), maps errors to typed storage
    /// errors, and publishes the changes after the commit.
    private func writing<T>(_ action: @autoclosure () -> String, origin: ChangeOrigin, reasons: ChangeReasons?, preparedTransaction: Bool,
                            _ body: (Database) throws -> T) throws -> T {
        try ensureOpen()
        // Commits are counted only for a stream that listens (``ObjectStore/commits()``):
        // reading the change count costs GRDB's queue checks on every edit.
        let countsCommits = observers.commits.hasSubscribers
        // What the transaction changed comes back with its result rather than through
        // captured variables, which Swift would check for exclusivity on every access.
        func drained(_ db: Database) throws -> (result: T, changes: [ObjectChange], changedRows: Bool) {
            let rowsBefore = countsCommits ? db.totalChangesCount : 0
            let result = try body(db)
            let changedRows = countsCommits && db.totalChangesCount != rowsBefore
            return (result, try drainChangeLog(db, origin: origin, reasons: reasons), changedRows)
        }
        let (result, changes, changedRows): (T, [ObjectChange], Bool)
        do {
            if !preparedTransaction {
                (result, changes, changedRows) = try writer.write(drained)
            } else {
                (result, changes, changedRows) = try writer.writeWithoutTransaction { db in
                    try writerStatements.statement(.beginImmediate, in: db).execute()
                    do {
                        let drainedResult = try drained(db)
                        try writerStatements.statement(.commit, in: db).execute()
                        return drainedResult
                    } catch {
                        // As `inTransaction` does: roll back unless SQLite already did, throw the first error.
                        try? db.rollback()
                        throw error
                    }
                }
            }
        } catch {
            // The transaction rolled back whole; an edit path says "not stored" instead.
            throw Self.counted(OfflineStoreError.storage(error, while: action()), in: writer).orUnchanged
        }
        publish(changes)
        if changedRows { observers.commits.send(.thisStore) }
        return result
    }

    /// Runs `body` on a reader, mapping errors to typed storage errors.
    func read<T>(_ action: String, _ body: (Database) throws -> T) throws -> T {
        try ensureOpen()
        do { return try writer.read(body) } catch {
            throw Self.counted(OfflineStoreError.storage(error, while: action), in: writer).orUnchanged
        }
    }

    private func ensureOpen() throws {
        if isClosed { throw OfflineStoreError(.closed, "the store was closed") }
    }
}

/// Why a write removes objects, by object, filled in by the write's body (see ``ObjectChange/reason``).
final class ChangeReasons {
    var byObject: [ObjectKey: ObjectChange.Reason] = [:]
}
