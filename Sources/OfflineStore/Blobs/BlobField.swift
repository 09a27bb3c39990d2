/// A field of a collection that holds a binary attachment (RhoConnect BLOB attribute).
///
/// The object's JSON keeps only a ``BlobReference`` in the field; the bytes live in a
/// file the store manages next to the store file.
///
/// ```swift
/// try store.register(CollectionDescriptor("photos", blobFields: [BlobField("image", download: .eager)]))
/// ```
public struct BlobField: Sendable, Hashable, Codable {
    /// The field's name (letters, digits and `_`, not `id`).
    public var name: String
    /// When a blob that another client uploaded is downloaded.
    public var download: BlobDownloadPolicy

    /// Declares a blob field; downloads are lazy unless said otherwise.
    public init(_ name: String, download: BlobDownloadPolicy = .lazy) {
        self.name = name
        self.download = download
    }
}

/// When the bytes of a blob known from the server are downloaded.
public enum BlobDownloadPolicy: String, Sendable, Hashable, Codable {
    /// On first access (``ObjectCollection/blobURL(_:field:)``).
    case lazy
    /// During `refresh`/`sync`, right after the changes were applied.
    case eager
}

/// What the object's JSON holds in a blob field: `{"blob": id, "size", "sha256", "mimetype"}`.
///
/// The `blob` id names this version of the attachment (a new one on every attach); the
/// SHA-256 lets a client match it with what the server stored (kinto-attachment's
/// `attachment.hash`) and check downloaded bytes.
public struct BlobReference: Sendable, Hashable {
    /// The blob's id (a lowercase UUID), new for every attached version.
    public var id: String
    /// The size in bytes.
    public var size: Int64
    /// The SHA-256 of the bytes, 64 lowercase hex digits.
    public var sha256: String
    /// The media type, e.g. `image/png`.
    public var mimetype: String

    /// Creates a reference.
    public init(id: String, size: Int64, sha256: String, mimetype: String) {
        self.id = id
        self.size = size
        self.sha256 = sha256
        self.mimetype = mimetype
    }

    /// Reads a reference from a field's JSON value; nil when it is not one.
    public init?(json: JSONValue?) {
        guard let object = json?.objectValue, let id = object["blob"]?.stringValue,
              let size = object["size"]?.intValue, let sha = object["sha256"]?.stringValue,
              sha.count == 64, sha.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        self.init(id: id, size: size, sha256: sha, mimetype: object["mimetype"]?.stringValue ?? "application/octet-stream")
    }

    /// The JSON stored in the object's field.
    public var json: JSONValue {
        ["blob": .string(id), "size": .int(size), "sha256": .string(sha256), "mimetype": .string(mimetype)]
    }
}
