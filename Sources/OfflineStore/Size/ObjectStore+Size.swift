import GRDB

extension ObjectStore {
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
        let evicted = try write("evicting unused objects") { db in try local.evictUnused(db, toFit: bytes, protecting: .none) }
        try local.sweepBlobs()
        return evicted
    }

    /// The bytes the store's pages in use hold now (see `StoreSize`).
    ///
    /// - Throws: ``OfflineStoreError`` for a storage failure.
    public func storeSize() throws -> Int64 {
        try read("measuring the store") { db in try StoreSize.used(db) }
    }
}
