import GRDB

extension ObjectStore {
    /// Forgets the blob rows of an object (evicted or deleted); their files are removed by
    /// the next ``sweepBlobFiles()``, after the transaction committed.
    func forgetBlobs(_ db: Database, collection: String, id: String) throws {
        try db.execute(sql: "DELETE FROM blobs WHERE collection = ? AND object_id = ?", arguments: [collection, id])
    }
}
