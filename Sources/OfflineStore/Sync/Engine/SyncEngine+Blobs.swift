import Foundation
import GRDB

extension SyncEngine {
    /// Uploads the pending blobs of objects that exist on the server (their create was
    /// applied), after the queue was pushed, then sweeps unreferenced blob files; called at
    /// the end of a flush, under its lock.
    ///
    /// Stored: the blob is `synced` and the server's record after the upload becomes the
    /// persistent copy (a pending local edit keeps its fields and is rebased on the new version).
    /// 412: stays pending until a refresh brought the server's copy. Other 4xx: `failed`.
    /// Offline, timeouts, 5xx, 401/403: stays pending and the flush stops with that error.
    /// - Returns: the error that stopped the uploads, if any.
    func uploadPendingBlobs(report: inout SyncReport) async throws -> OfflineStoreError? {
        defer {
            _ = try? local.sweepBlobs()  // files of objects this flush deleted
            report.blobsWaiting = (try? local.countWaitingBlobs()) ?? report.blobsWaiting
        }
        let candidates = try read("reading pending blobs") { db in try BlobTable.uploadCandidates(db) }
        let live = candidates.filter { candidate in
            (try? descriptor(of: candidate.blob.collection)).map { !$0.isLocalOnly } ?? false
        }
        guard !live.isEmpty else { return nil }
        guard let backend = backend as? any BlobBackend else {
            return OfflineStoreError(.configuration, "the backend cannot store blobs; \(live.count) blob(s) stay pending")
        }
        for (blob, version) in live {
            if isForcedOffline { return OfflineStoreError(.offline, "the store was set offline") }
            if let cancelled = SyncCancellation.check("the flush") { return cancelled }
            guard let file = blob.file else { continue }
            let upload = BlobUpload(collection: blob.collection, id: blob.objectID, field: blob.field,
                                    file: local.blobFiles.url(file), reference: blob.reference, baseVersion: version)
            let outcome: BlobUploadOutcome
            do {
                outcome = try await backend.uploadBlob(upload)
            } catch {
                // A cancelled upload is resent whole by the next flush (uploads are idempotent).
                let stop = SyncCancellation.stop(for: error, "the flush")
                try recordBlobAttempt(blob, state: .pending, error: stop.message, status: stop.status)
                return stop
            }
            switch outcome {
            case .stored(let record):
                try write("recording the upload of \(blob.collection)/\(blob.objectID)") { db in
                    try BlobTable.recordAttempt(blob, state: .synced, error: nil, status: nil, in: db)
                    if let record { try adoptUploadedRecord(record, of: blob, metadata: backend.blobMetadataFields, in: db) }
                }
                report.blobsUploaded += 1
            case .conflict:
                try recordBlobAttempt(blob, state: .pending, error: "the object changed on the server; refresh, then flush again", status: 412)
            case .rejected(let status, let body):
                let text = body.map { String($0.prefix(2000)) } ?? ""
                try recordBlobAttempt(blob, state: .failed, error: "the server refused the upload (HTTP \(status)) \(text)", status: status)
            }
        }
        return nil
    }

    private func recordBlobAttempt(_ blob: BlobRow, state: BlobRow.State, error: String, status: Int?) throws {
        try write("recording a blob upload attempt") { db in
            try BlobTable.recordAttempt(blob, state: state, error: error, status: status, in: db)
        }
    }

    /// The server's record after an upload becomes the persistent copy. A local edit takes
    /// the server-managed attachment fields and is rebased on the new version only when the
    /// upload is all that changed on the server (kinto-attachment ignores `If-Match`); otherwise
    /// it keeps its base version, so its push meets the other change as a conflict.
    private func adoptUploadedRecord(_ change: RemoteChange, of blob: BlobRow, metadata: [String], in db: Database) throws {
        guard var row = try ObjectRow.fetch(db, collection: blob.collection, id: blob.objectID),
              let record = change.record?.objectValue else { return }
        let onlyUpload = Self.withoutFields(metadata, row.persistent?.objectValue) == Self.withoutFields(metadata, record)
        row.persistent = .object(record)
        row.serverVersion = change.version
        if row.dirty && onlyUpload {
            if var local = row.local?.objectValue {
                for field in metadata { local[field] = record[field] }
                row.local = .object(local)
            }
            row.base = .object(record)
            row.baseVersion = change.version
            try QueueTable.rebase(db, collection: blob.collection, id: blob.objectID, onto: change.version)
        }
        try row.save(db)
    }

    private static func withoutFields(_ fields: [String], _ object: [String: JSONValue]?) -> [String: JSONValue]? {
        guard var object else { return nil }
        for field in fields { object[field] = nil }
        return object
    }
}

extension SyncEngine {
    /// How many objects one eager-download query reads.
    static let blobDownloadBatch = 50

    /// Downloads a blob into the blob directory, checks its size and SHA-256, and records it;
    /// returns its file. A blob the store got meanwhile (another download) is returned instead.
    ///
    /// - Throws: ``OfflineStoreError``: `configuration` (backend without blobs), `notFound`
    ///   (not on the server yet), `badResponse` (bytes that do not match), network errors.
    func downloadBlob(collection: String, id: String, field: String, reference: BlobReference, record: JSONValue) async throws -> URL {
        guard let backend = try connected("download blobs") as? any BlobBackend else {
            throw OfflineStoreError(.configuration, "the store's backend cannot download blobs")
        }
        if isForcedOffline { throw OfflineStoreError(.offline, "the store is set offline") }
        let files = local.blobFiles
        try files.ensureDirectory()
        let name = files.reserve()
        defer { files.release(name) }
        let target = files.url(name)
        do {
            guard try await backend.downloadBlob(collection: collection, id: id, field: field, reference: reference,
                                                 record: record, to: target) else {
                throw OfflineStoreError(.notFound, "object \(collection)/\(id): the server does not hold the blob in '\(field)' yet")
            }
            try files.protect(target)
            let measured = try files.measure(target)
            guard measured.size == reference.size, measured.sha256 == reference.sha256 else {
                throw OfflineStoreError(.badResponse, "object \(collection)/\(id): the downloaded blob in '\(field)' does not match its size and SHA-256")
            }
            let kept = try write("recording the blob of \(collection)/\(id)") { db -> String in
                if let existing = try BlobRow.fetch(db, collection: collection, id: id, field: field),
                   existing.reference.id == reference.id, let file = existing.file,
                   FileManager.default.fileExists(atPath: files.url(file).path) {
                    return file
                }
                try BlobRow.put(db, collection: collection, id: id, field: field, file: name, reference: reference, state: .synced)
                return name
            }
            if kept != name { files.remove(name) }
            return files.url(kept)
        } catch {
            files.remove(name)
            throw OfflineStoreError.sync(error)
        }
    }

    /// After a successful refresh, downloads the blobs of eager blob fields that the store
    /// does not hold; blobs the server does not hold yet are left for later. Called at the
    /// end of a refresh, under its lock; returns the network error that stopped the downloads.
    func downloadEagerBlobs(of targets: [CollectionDescriptor], report: inout SyncReport) async throws -> OfflineStoreError? {
        defer { _ = try? local.sweepBlobs() }
        for collection in targets where !collection.isLocalOnly {
            for field in collection.blobFields where field.download == .eager {
                var after = ""
                while true {
                    let batch = try read("finding blobs to download") { db in
                        try BlobTable.missingDownloads(db, collection: collection.name, field: field.name, after: after,
                                                       limit: Self.blobDownloadBatch)
                    }
                    guard let last = batch.last else { break }
                    after = last.id
                    for (id, persistent) in batch {
                        guard let text = persistent, let record = try? JSONValue(parsing: text),
                              let reference = BlobReference(json: record[field.name]) else { continue }
                        do {
                            _ = try await downloadBlob(collection: collection.name, id: id, field: field.name,
                                                       reference: reference, record: record)
                            report.blobsDownloaded += 1
                        } catch let error as OfflineStoreError where error.code == .notFound || error.code == .badResponse {
                            continue  // not uploaded yet, or replaced meanwhile: a later refresh or access gets it
                        } catch {
                            return OfflineStoreError.sync(error)
                        }
                    }
                }
            }
        }
        return nil
    }
}
