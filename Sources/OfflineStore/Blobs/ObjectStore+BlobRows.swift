import Foundation
import GRDB

/// One row of the `blobs` table: a blob file the store holds for an object's field.
struct BlobRow: Sendable {
    /// Upload and download states.
    enum State: String, Sendable {
        /// Attached locally, waiting to be uploaded (after the object exists on the server).
        case pending
        /// The server has it (uploaded, or downloaded from it), or the collection never syncs.
        case synced
        /// The server refused the upload (4xx); kept until retried.
        case failed
    }

    var collection: String
    var objectID: String
    var field: String
    var file: String?
    var reference: BlobReference
    var state: State
    var attempts: Int
    var lastError: String?
    var status: Int?

    static let columns = "collection, object_id, field, file, size, sha256, mimetype, state, blob_id, attempts, last_error, status"

    init(row: Row) throws {
        collection = row["collection"]
        objectID = row["object_id"]
        field = row["field"]
        file = row["file"]
        reference = BlobReference(id: row["blob_id"] ?? "", size: row["size"], sha256: row["sha256"] ?? "", mimetype: row["mimetype"])
        let name: String = row["state"]
        guard let state = State(rawValue: name) else {
            throw OfflineStoreError(.corrupted, "blob \(field) of \(objectID) has an unknown state '\(name)'")
        }
        self.state = state
        attempts = row["attempts"]
        lastError = row["last_error"]
        status = row["status"]
    }

    static func fetch(_ db: Database, collection: String, id: String, field: String) throws -> BlobRow? {
        try Row.fetchOne(db, sql: "SELECT \(columns) FROM blobs WHERE collection = ? AND object_id = ? AND field = ?",
                         arguments: [collection, id, field]).map(BlobRow.init(row:))
    }

    /// Writes (or replaces) the row of an object's field; the replaced file is swept later.
    static func put(_ db: Database, collection: String, id: String, field: String, file: String,
                    reference: BlobReference, state: State) throws {
        try db.execute(sql: """
            INSERT INTO blobs(collection, object_id, field, file, size, sha256, mimetype, state, blob_id, attempts, last_error, status, location)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, NULL, NULL, NULL)
            ON CONFLICT(collection, object_id, field) DO UPDATE SET
                file = excluded.file, size = excluded.size, sha256 = excluded.sha256, mimetype = excluded.mimetype,
                state = excluded.state, blob_id = excluded.blob_id, attempts = 0, last_error = NULL, status = NULL, location = NULL
            """, arguments: [collection, id, field, file, reference.size, reference.sha256, reference.mimetype, state.rawValue, reference.id])
    }
}

extension ObjectStore {
    /// The store's blob directory.
    var blobFiles: BlobFiles { BlobFiles(directory: blobDirectory) }

    /// Forgets the blob rows of an object (evicted or deleted); their files are removed by
    /// the next ``sweepBlobs()``, after the transaction committed.
    func forgetBlobs(_ db: Database, collection: String, id: String) throws {
        try db.execute(sql: "DELETE FROM blobs WHERE collection = ? AND object_id = ?", arguments: [collection, id])
    }

    /// Removes blob rows no copy of their object refers to any more (object gone, blob
    /// replaced or cleared), then every file in the blob directory that no row names.
    ///
    /// Runs after attaches, flushes, refreshes and ``evict(toFit:)``; a file being attached
    /// or downloaded is never removed.
    /// - Returns: how many files were removed.
    /// - Throws: ``OfflineStoreError`` for a storage failure.
    @discardableResult
    public func sweepBlobs() throws -> Int {
        let files = blobFiles
        let listed = files.names()
        try write("forgetting unreferenced blobs") { db in
            // Field names are validated identifiers; the JSON path is still bound, never spliced.
            try db.execute(sql: """
                DELETE FROM blobs WHERE NOT EXISTS (
                    SELECT 1 FROM objects o WHERE o.collection = blobs.collection AND o.id = blobs.object_id
                    AND blobs.blob_id IN (json_extract(o.local, '$.' || blobs.field || '.blob'),
                                          json_extract(o.persistent, '$.' || blobs.field || '.blob'),
                                          json_extract(o.base, '$.' || blobs.field || '.blob')))
                """)
        }
        // Listed before the in-progress snapshot: a listed file not in progress has its row committed (or was abandoned).
        let busy = BlobFiles.inProgress.withLock { $0 }
        let referenced = try read("reading blob files") { db in
            Set(try String.fetchAll(db, sql: "SELECT file FROM blobs WHERE file IS NOT NULL"))
        }
        var removed = 0
        for name in listed where !busy.contains(name) && !referenced.contains(name) {
            files.remove(name)
            removed += 1
        }
        return removed
    }

    /// The upload state of an object's blob field, or nil when the store holds no file for it.
    func blobRow(collection: String, id: String, field: String) throws -> BlobRow? {
        try read("reading the blob \(field) of \(collection)/\(id)") { db in
            try BlobRow.fetch(db, collection: collection, id: id, field: field)
        }
    }
}
