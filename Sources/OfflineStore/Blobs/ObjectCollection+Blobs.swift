import Foundation

extension ObjectCollection {
    /// Attaches a copy of a file to an object's blob field; the field then holds a
    /// ``BlobReference`` and the upload is queued with the object.
    ///
    /// The file is copied (and hashed) into the store's blob directory first; the field's
    /// new reference and the blob's pending upload commit in one transaction, as an update
    /// of the object under the write mode and update policy. The blob it replaces is removed.
    ///
    /// ```swift
    /// let ref = try await store.collection("photos").attach("p1", field: "image", file: pngURL, mimetype: "image/png")
    /// ```
    /// - Returns: the reference now stored in the field.
    /// - Throws: ``OfflineStoreError``: `schemaViolation` (not a declared blob field),
    ///   `notFound` (no such object, or the file cannot be read), `storage`, and the errors of an edit;
    ///   awaiting the server, also an upload's: what stopped it (the blob stays pending) or
    ///   `failedEntry` (refused). Nothing changes when it throws before the edit committed.
    @discardableResult
    public func attach(_ id: String, field: String, file: URL, mimetype: String = "application/octet-stream",
                       policy: UpdatePolicy? = nil) async throws -> BlobReference {
        try await attach(id, field: field, mimetype: mimetype, policy: policy) { files, name in try files.copy(from: file, to: name) }
    }

    /// Attaches bytes to an object's blob field; see ``attach(_:field:file:mimetype:policy:)``.
    @discardableResult
    public func attach(_ id: String, field: String, data: Data, mimetype: String = "application/octet-stream",
                       policy: UpdatePolicy? = nil) async throws -> BlobReference {
        try await attach(id, field: field, mimetype: mimetype, policy: policy) { files, name in try files.write(data, to: name) }
    }

    /// The local file holding the blob of an object's field, downloaded first when the store
    /// does not hold it yet (lazy download). The URL stays valid while the object refers to
    /// this blob; read it, do not change it.
    ///
    /// - Throws: ``OfflineStoreError``: `schemaViolation` (not a declared blob field),
    ///   `notFound` (no object, no blob in the field, or the server does not hold it yet),
    ///   `badResponse` (downloaded bytes that do not match the reference), `configuration`
    ///   (the backend cannot store blobs), and network errors (`offline`, `timeout`, `server`).
    public func blobURL(_ id: String, field: String) async throws -> URL {
        let descriptor = try descriptor()
        let reference = try blobReference(id, field: field, descriptor: descriptor)
        let files = store.local.blobFiles
        if let row = try blobRow(id, field: field), row.reference.id == reference.id,
           let file = row.file, FileManager.default.fileExists(atPath: files.url(file).path) {
            return files.url(file)
        }
        guard let persistent = try object(id)?.persistent,
              BlobReference(json: persistent[field])?.id == reference.id else {
            throw OfflineStoreError(.notFound, "object \(name)/\(id): the blob in '\(field)' is not in the store and not on the server")
        }
        return try await store.syncEngine.downloadBlob(collection: name, id: id, field: field, reference: reference, record: persistent)
    }

    /// The bytes of an object's blob (read into memory; use ``blobURL(_:field:)`` for large blobs).
    ///
    /// - Throws: the errors of ``blobURL(_:field:)``, and `storage` when the file cannot be read.
    public func blobData(_ id: String, field: String) async throws -> Data {
        let url = try await blobURL(id, field: field)
        do { return try Data(contentsOf: url) } catch {
            throw OfflineStoreError(.storage, "cannot read the blob file", underlying: String(describing: error))
        }
    }

    /// The upload state of an object's blob field, or nil when the store holds no file for it.
    ///
    /// - Throws: ``OfflineStoreError/Code/storage``.
    public func blobStatus(_ id: String, field: String) throws -> BlobStatus? {
        try blobRow(id, field: field).map(BlobStatus.init)
    }

    /// Queues a failed blob upload again (RhoConnect retry); the next flush sends it.
    ///
    /// - Throws: ``OfflineStoreError/Code/notFound`` when the blob did not fail.
    public func retryBlobUpload(_ id: String, field: String) throws {
        try OfflineStoreError.refusingEdit {
            guard try store.local.retryFailedBlobUpload(collection: name, id: id, field: field) else {
                throw OfflineStoreError(.notFound, "object \(name)/\(id) has no failed blob in '\(field)'")
            }
        }
    }

    /// The row of an object's blob field, or nil when the store holds no file for it.
    private func blobRow(_ id: String, field: String) throws -> BlobRow? {
        try store.local.read("reading the blob \(field) of \(name)/\(id)") { db in
            try BlobRow.fetch(db, collection: name, id: id, field: field)
        }
    }

    /// The reference in an object's declared blob field.
    private func blobReference(_ id: String, field: String, descriptor: CollectionDescriptor) throws -> BlobReference {
        guard descriptor.isBlobField(field) else {
            throw OfflineStoreError(.schemaViolation, "collection \(name): '\(field)' is not a declared blob field")
        }
        guard let value = try find(id) else { throw OfflineStoreError(.notFound, "object \(name)/\(id) does not exist") }
        guard let reference = BlobReference(json: value[field]) else {
            throw OfflineStoreError(.notFound, "object \(name)/\(id) has no blob in '\(field)'")
        }
        return reference
    }

    private func attach(_ id: String, field: String, mimetype: String, policy: UpdatePolicy?,
                        write: (BlobFiles, String) throws -> (size: Int64, sha256: String)) async throws -> BlobReference {
        // Nothing is stored until the edit commits; after, the edit says what became of it.
        try await OfflineStoreError.refusingEdit {
            try await attachChecked(id, field: field, mimetype: mimetype, policy: policy, write: write)
        }
    }

    private func attachChecked(_ id: String, field: String, mimetype: String, policy: UpdatePolicy?,
                               write: (BlobFiles, String) throws -> (size: Int64, sha256: String)) async throws -> BlobReference {
        let descriptor = try descriptor()
        guard descriptor.isBlobField(field) else {
            throw OfflineStoreError(.schemaViolation, "collection \(name): '\(field)' is not a declared blob field")
        }
        guard try find(id) != nil else { throw OfflineStoreError(.notFound, "object \(name)/\(id) does not exist") }
        guard !mimetype.isEmpty, mimetype.utf8.count <= 255, !mimetype.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw OfflineStoreError(.invalidOperation, "the media type must be 1–255 bytes without control characters")
        }
        let files = store.local.blobFiles
        let fileName = files.reserve()
        defer {
            files.release(fileName)
            _ = try? store.sweepBlobs()  // removes the new file if the edit did not commit, and the replaced one if it did
        }
        let (size, sha256) = try write(files, fileName)
        let reference = BlobReference(id: UUID().uuidString.lowercased(), size: size, sha256: sha256, mimetype: mimetype)
        let (collection, state) = (name, descriptor.isLocalOnly ? BlobRow.State.synced : .pending)
        _ = try await store.editEngine.edit(.patch(id: id, fields: [field: reference.json]), in: name, policy: policy, alongside: { db in
            try BlobRow.put(db, collection: collection, id: id, field: field, file: fileName, reference: reference, state: state)
        }, awaitedUpload: { db, id in
            guard let row = try BlobRow.fetch(db, collection: collection, id: id, field: field), row.reference.id == reference.id else {
                return .done  // replaced since: the later attach answers for its own blob
            }
            switch row.state {
            case .synced: return .done
            case .pending: return .pending(error: row.lastError, status: row.status)
            case .failed: return .refused(error: row.lastError, status: row.status)
            }
        })
        return reference
    }
}

/// Where a blob's upload stands.
public struct BlobStatus: Sendable, Hashable {
    /// The blob's reference.
    public var reference: BlobReference
    /// Whether the upload is still to do.
    public var isPending: Bool
    /// Whether the server refused the upload (see ``status`` and ``lastError``); retry with
    /// ``ObjectCollection/retryBlobUpload(_:field:)``.
    public var isFailed: Bool
    /// How many uploads were tried.
    public var attempts: Int
    /// The last upload error, in words.
    public var lastError: String?
    /// The HTTP status of a refused upload.
    public var status: Int?

    init(_ row: BlobRow) {
        reference = row.reference
        isPending = row.state == .pending
        isFailed = row.state == .failed
        attempts = row.attempts
        lastError = row.lastError
        status = row.status
    }
}
