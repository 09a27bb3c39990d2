import Foundation
import GRDB

extension SyncEngine {
    /// How many objects one eager-download query reads.
    static let blobDownloadBatch = 50

    /// Downloads a blob into the blob directory, checks its size and SHA-256, and records it;
    /// returns its file. A blob the store got meanwhile (another download) is returned instead.
    ///
    /// - Throws: ``OfflineStoreError``: `configuration` (backend without blobs), `notFound`
    ///   (not on the server yet), `badResponse` (bytes that do not match), network errors.
    func downloadBlob(collection: String, id: String, field: String, reference: BlobReference, record: JSONValue) async throws -> URL {
        guard let backend = self.backend as? any BlobBackend else {
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
                throw OfflineStoreError(.notFound, "\(collection)/\(id): the server does not hold the blob in '\(field)' yet")
            }
            try files.protect(target)
            let measured = try files.measure(target)
            guard measured.size == reference.size, measured.sha256 == reference.sha256 else {
                throw OfflineStoreError(.badResponse, "\(collection)/\(id): the downloaded blob in '\(field)' does not match its size and SHA-256")
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
    /// end of a refresh, under its lock; returns the refresh's result, or the network error
    /// that stopped the downloads.
    func downloadEagerBlobs(_ result: (SyncReport, OfflineStoreError?), collections targets: [CollectionDescriptor])
        async throws -> (SyncReport, OfflineStoreError?) {
        var (report, stop) = result
        defer { _ = try? local.sweepBlobs() }
        guard stop == nil else { return (report, stop) }
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
                            return (report, OfflineStoreError.sync(error))
                        }
                    }
                }
            }
        }
        return (report, nil)
    }
}
