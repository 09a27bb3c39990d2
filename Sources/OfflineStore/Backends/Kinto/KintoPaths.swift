import Foundation

/// Builds Kinto URLs and batch paths; every bucket, collection and record id is
/// percent-encoded with a strict allowed set (ASCII letters, digits, `-`, `_`), so an id
/// like `../x` stays one opaque path segment.
struct KintoPaths: Sendable {
    /// The API base without a trailing slash, e.g. `http://127.0.0.1:8888/v1`.
    let base: String
    /// The bucket's id, encoded.
    let bucket: String

    init(serverURL: URL, bucket: String) {
        var base = serverURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        self.base = base
        self.bucket = Self.encode(bucket)
    }

    /// `/buckets/{bucket}`.
    var bucketPath: String { "/buckets/\(bucket)" }

    /// `/buckets/{bucket}/collections/{collection}`.
    func collectionPath(_ collection: String) -> String {
        "\(bucketPath)/collections/\(Self.encode(collection))"
    }

    /// `/buckets/{bucket}/collections/{collection}/records`.
    func recordsPath(_ collection: String) -> String { collectionPath(collection) + "/records" }

    /// `/buckets/{bucket}/collections/{collection}/records/{id}`.
    func recordPath(_ collection: String, id: String) -> String {
        recordsPath(collection) + "/" + Self.encode(id)
    }

    /// The server root, `{base}/`.
    var root: URL { url("/") }

    /// The batch endpoint, `{base}/batch`.
    var batch: URL { url("/batch") }

    /// The absolute URL of a path (already encoded) with optional numeric or encoded query items.
    func url(_ path: String, query: [(String, String)] = []) -> URL {
        var text = base + path
        if !query.isEmpty {
            text += "?" + query.map { "\($0.0)=\(Self.encode($0.1))" }.joined(separator: "&")
        }
        guard let url = URL(string: text) else {
            preconditionFailure("KintoPaths built an invalid URL from an encoded path")
        }
        return url
    }

    /// Whether a URL the server handed us (Next-Page) points at the configured server.
    func isSameOrigin(_ url: URL) -> Bool {
        guard let own = URL(string: base) else { return false }
        return own.hasSameOrigin(as: url)
    }

    /// Percent-encodes everything except ASCII letters, digits, `-` and `_`.
    static func encode(_ segment: String) -> String {
        var out = ""
        out.reserveCapacity(segment.utf8.count)
        for byte in segment.utf8 {
            if isUnreserved(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// Whether a string matches Kinto's id rule `^[a-zA-Z0-9][a-zA-Z0-9_-]*$`.
    static func isValidID(_ id: String) -> Bool {
        guard let first = id.utf8.first, isAlphanumeric(first) else { return false }
        return id.utf8.allSatisfy(isUnreserved)
    }

    private static func isAlphanumeric(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
    }

    private static func isUnreserved(_ b: UInt8) -> Bool {
        isAlphanumeric(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
    }
}
