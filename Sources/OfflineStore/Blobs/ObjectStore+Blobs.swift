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
