import Foundation

/// A ``Backend`` that can store blob attachments: upload a file for a record that exists
/// on the server, and download a blob another client uploaded.
///
/// Implementations: `KintoBackend` (the kinto-attachment plugin). A store whose backend
/// does not conform keeps attached blobs pending; `flush` reports it.
public protocol BlobBackend: Backend {
    /// Fields of a record that the server itself manages for attachments (Kinto: `attachment`).
    /// The store copies them from the server's record into a pending local edit after an
    /// upload, so the next push sends them back unchanged.
    var blobMetadataFields: [String] { get }

    /// How many blob fields one object may have on this server; nil for no limit.
    var maxBlobFieldsPerObject: Int? { get }

    /// Uploads one blob of an object that exists on the server, streaming the file.
    ///
    /// - Returns: what the server did; ``BlobUploadOutcome/stored(_:)`` carries the record
    ///   after the upload when the backend can read it.
    /// - Throws: ``OfflineStoreError`` for failures that may pass (`offline`, `timeout`,
    ///   `server`) or stop the flush (`unauthorized`).
    func uploadBlob(_ upload: BlobUpload) async throws -> BlobUploadOutcome

    /// Downloads the blob `reference` of an object's field to `file`, given the server's
    /// record; returns false when the server does not hold that blob (not uploaded yet).
    /// The store checks size and SHA-256 afterwards.
    ///
    /// - Throws: ``OfflineStoreError`` (`offline`, `timeout`, `server`, `unauthorized`).
    func downloadBlob(collection: String, id: String, field: String, reference: BlobReference,
                      record: JSONValue, to file: URL) async throws -> Bool
}

/// One blob to upload.
public struct BlobUpload: Sendable {
    /// The collection.
    public var collection: String
    /// The object's id (the record must exist on the server).
    public var id: String
    /// The blob field.
    public var field: String
    /// The file holding the bytes.
    public var file: URL
    /// The blob's reference (size, SHA-256, media type).
    public var reference: BlobReference
    /// The server version the store knows for the object, to send as a precondition.
    public var baseVersion: String?

    /// Describes an upload.
    public init(collection: String, id: String, field: String, file: URL, reference: BlobReference, baseVersion: String?) {
        self.collection = collection
        self.id = id
        self.field = field
        self.file = file
        self.reference = reference
        self.baseVersion = baseVersion
    }
}

/// What the server did with an upload.
public enum BlobUploadOutcome: Sendable, Hashable {
    /// Stored; the server's record afterwards (nil when the backend cannot tell).
    case stored(RemoteChange?)
    /// The record changed on the server since `baseVersion` (412): refresh, then flush again.
    case conflict
    /// Refused (4xx other than auth and 412), with status and body; kept failed until retried.
    case rejected(status: Int, body: String?)
}
