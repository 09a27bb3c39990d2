import Foundation
import GRDB

extension LocalStore {
    /// Removes blob rows no copy of their object refers to any more (object gone, blob
    /// replaced or cleared), then every file in the blob directory that no row names; a
    /// file being attached or downloaded is never removed.
    /// - Returns: how many files were removed.
    @discardableResult
    func sweepBlobs() throws -> Int {
        let files = blobFiles
        let listed = files.names()
        try write("forgetting unreferenced blobs") { db in try BlobTable.forgetUnreferenced(db) }
        // Listed before the in-progress snapshot: a listed file not in progress has its row committed (or was abandoned).
        let busy = BlobFiles.inProgress.withLock { $0 }
        let referenced = try read("reading blob files") { db in try BlobTable.referencedFiles(db) }
        var removed = 0
        for name in listed where !busy.contains(name) && !referenced.contains(name) {
            files.remove(name)
            removed += 1
        }
        return removed
    }

    /// Blob uploads still to do or refused, store-wide.
    func countWaitingBlobs() throws -> Int {
        try read("counting pending blobs") { db in try BlobTable.waitingCount(db) }
    }
}
