import Foundation

extension ObjectStore {
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
}
