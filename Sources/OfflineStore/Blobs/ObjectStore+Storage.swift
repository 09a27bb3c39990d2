import Foundation

extension ObjectStore {
    /// Removes blob rows no copy of their object refers to any more (object gone, blob
    /// replaced or cleared), then every file in the blob directory that no row names.
    ///
    /// Runs after attaches, flushes, refreshes and ``evict(toFit:)``; a file being attached
    /// or downloaded is never removed.
    /// - Returns: how many files were removed.
    /// - Throws: ``OfflineStoreError`` for a storage failure.
    @discardableResult
    public func sweepBlobs() throws -> Int {
        try local.sweepBlobs()
    }

    /// Removes least recently used objects that are evictable until the store's pages in use
    /// fit in `bytes`, or nothing evictable is left; returns how many objects were removed.
    ///
    /// Evictable means: synced with the server (no local edit, no queue entry, not
    /// conflicted or failed), not pinned, and in a collection that syncs (local-only
    /// collections hold the only copy). Use is recorded by `fetch`, `search` and
    /// ``ObjectCollection/touch(_:)``; objects never used go first. An evicted object
    /// comes back with a fetch from the server (the refresh cursor does not move back).
    ///
    /// - Throws: ``OfflineStoreError`` for a storage failure; nothing is removed then.
    @discardableResult
    public func evict(toFit bytes: Int64) throws -> Int {
        try local.evict(toFit: bytes)
    }

    /// The bytes the store's pages in use hold now (see `StoreSize`).
    ///
    /// - Throws: ``OfflineStoreError`` for a storage failure.
    public func storeSize() throws -> Int64 {
        try local.read("measuring the store") { db in try StoreSize.used(db) }
    }
}
