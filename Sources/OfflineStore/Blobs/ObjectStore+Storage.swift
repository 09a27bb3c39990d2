import Foundation
import GRDB

extension ObjectStore {
    /// The store's blob directory.
    var blobFiles: BlobFiles { local.blobFiles }

    /// Removes blob rows no copy of their object refers to any more (object gone, blob
    /// replaced or cleared), then every file in the blob directory that no row names.
    ///
    /// Runs after attaches, flushes, refreshes and ``evict(toFit:)``; a file being attached
    /// or downloaded is never removed.
    /// - Returns: how many files were removed.
    /// - Throws: ``OfflineStoreError`` for a storage failure.
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

    /// The upload state of an object's blob field, or nil when the store holds no file for it.
    func blobRow(collection: String, id: String, field: String) throws -> BlobRow? {
        try read("reading the blob \(field) of \(collection)/\(id)") { db in
            try BlobRow.fetch(db, collection: collection, id: id, field: field)
        }
    }
}

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

extension ObjectStore {
    /// Refuses a collection with more blob fields than the backend stores per object.
    ///
    /// - Throws: ``OfflineStoreError/Code/configuration``.
    func checkBlobSupport(_ descriptor: CollectionDescriptor) throws {
        guard !descriptor.isLocalOnly, let backend = backend as? any BlobBackend,
              let limit = backend.maxBlobFieldsPerObject, descriptor.blobFields.count > limit else { return }
        throw OfflineStoreError(.configuration, "\(descriptor.name): the backend stores \(limit) blob field(s) per object, "
            + "\(descriptor.blobFields.count) are declared")
    }
}
