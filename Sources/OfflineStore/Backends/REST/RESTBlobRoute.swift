/// Where a REST resource uploads one blob field and how its records report the stored
/// blob back: a multipart route, and fields (remote names) holding the download URL and
/// the stored bytes' SHA-256.
///
/// ```swift
/// var products = RESTResource(path: "/products", wrapKey: "product")
/// products.blobRoutes = ["image": RESTBlobRoute(path: "/products/{id}/image", partName: "image",
///                                                urlField: "image_url", sha256Field: "image_sha256")]
/// ```
public struct RESTBlobRoute: Sendable, Hashable {
    /// The upload route template, e.g. `/products/{id}/image` (`{id}` is the object's id; no
    /// format suffix is added).
    public var path: String
    /// The HTTP method of uploads (default `POST`).
    public var method: String
    /// The name of the multipart file part, e.g. `image`.
    public var partName: String
    /// The remote field holding the stored blob's URL, absolute or relative to the base URL.
    public var urlField: String
    /// The remote field holding the hex SHA-256 of the stored bytes; the blob a record names
    /// is downloadable only when it equals the reference's.
    public var sha256Field: String
    /// Further remote fields the server manages for the blob (file name, size, type): never
    /// sent, and copied into a pending local edit after an upload.
    public var metadataFields: [String]

    /// Describes a blob route.
    public init(path: String, method: String = "POST", partName: String, urlField: String, sha256Field: String,
                metadataFields: [String] = []) {
        self.path = path
        self.method = method
        self.partName = partName
        self.urlField = urlField
        self.sha256Field = sha256Field
        self.metadataFields = metadataFields
    }

    /// Every remote field the server manages for this blob.
    var serverFields: [String] { [urlField, sha256Field] + metadataFields }
}
