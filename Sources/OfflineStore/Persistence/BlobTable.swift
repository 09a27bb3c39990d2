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

/// Reads and writes of the `blobs` table, inside the caller's transaction.
enum BlobTable {
    /// Pending blobs of objects the server has (their create was applied, no delete queued), with the object's server version.
    static func uploadCandidates(_ db: Database) throws -> [(blob: BlobRow, version: String?)] {
        try Row.fetchAll(db, sql: """
            SELECT \(BlobRow.columns.split(separator: ",").map { "b." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")),
                   o.server_version
            FROM blobs b JOIN objects o ON o.collection = b.collection AND o.id = b.object_id
            WHERE b.state = 'pending' AND o.server_version IS NOT NULL AND o.persistent IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM queue q WHERE q.collection = b.collection AND q.object_id = b.object_id
                              AND (q.kind = 'create' OR q.kind = 'delete'))
            ORDER BY b.collection, b.object_id, b.field
            """).map { (try BlobRow(row: $0), $0["server_version"] as String?) }
    }

    /// Records an upload attempt's result.
    static func recordAttempt(_ blob: BlobRow, state: BlobRow.State, error: String?, status: Int?, in db: Database) throws {
        try db.execute(sql: """
            UPDATE blobs SET state = ?, attempts = attempts + 1, last_error = ?, status = ?
            WHERE collection = ? AND object_id = ? AND field = ? AND blob_id = ?
            """, arguments: [state.rawValue, error, status, blob.collection, blob.objectID, blob.field, blob.reference.id])
    }

    /// Blob uploads still to do or refused, store-wide.
    static func waitingCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM blobs WHERE state != 'synced'") ?? 0
    }

    /// Forgets the blob rows of an object.
    static func forget(_ db: Database, collection: String, id: String) throws {
        try db.execute(sql: "DELETE FROM blobs WHERE collection = ? AND object_id = ?", arguments: [collection, id])
    }

    /// Removes blob rows no copy of their object refers to any more.
    static func forgetUnreferenced(_ db: Database) throws {
        // Field names are validated identifiers; the JSON path is still bound, never spliced.
        try db.execute(sql: """
            DELETE FROM blobs WHERE NOT EXISTS (
                SELECT 1 FROM objects o WHERE o.collection = blobs.collection AND o.id = blobs.object_id
                AND blobs.blob_id IN (json_extract(o.local, '$.' || blobs.field || '.blob'),
                                      json_extract(o.persistent, '$.' || blobs.field || '.blob'),
                                      json_extract(o.base, '$.' || blobs.field || '.blob')))
            """)
    }

    /// The files the blob rows name.
    static func referencedFiles(_ db: Database) throws -> Set<String> {
        Set(try String.fetchAll(db, sql: "SELECT file FROM blobs WHERE file IS NOT NULL"))
    }

    /// Objects of a collection after `after` (by id) whose server copy names a blob in
    /// `field` that has no row yet: the eager downloads still to do, `limit` at a time.
    static func missingDownloads(_ db: Database, collection: String, field: String, after: String,
                                 limit: Int) throws -> [(id: String, persistent: String?)] {
        try Row.fetchAll(db, sql: """
            SELECT o.id, o.persistent FROM objects o
            WHERE o.collection = ? AND o.id > ?
              AND json_extract(o.persistent, '$.' || ? || '.blob') IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM blobs b WHERE b.collection = o.collection AND b.object_id = o.id
                              AND b.field = ? AND b.blob_id = json_extract(o.persistent, '$.' || ? || '.blob'))
            ORDER BY o.id LIMIT ?
            """, arguments: [collection, after, field, field, field, limit]).map { ($0["id"], $0["persistent"]) }
    }
}
