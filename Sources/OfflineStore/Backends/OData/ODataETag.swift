/// An entity's ETag as the server wrote it (`W/"3"`, `W/"1800000000000"`, `"a1"`): the
/// store keeps the whole text as the object's version and sends it back verbatim in
/// `If-Match`. Versions are compared the way OData servers evaluate `If-Match`: weakly, by
/// the text between the quotes.
struct ODataETag: Sendable, Hashable {
    /// The ETag as the server wrote it, `W/` included.
    let text: String
    /// Whether it is a weak ETag (`W/"…"`).
    let isWeak: Bool
    /// The text between the quotes.
    let opaque: String

    /// `If-Match: *`: matches any current version (in both of the fixture's modes; on a
    /// missing entity it is a 404, never a 412).
    static let anyVersion = "*"

    /// Reads an ETag: `W/"…"` or `"…"`, with no `"` or control character between the quotes.
    ///
    /// - Throws: ``OfflineStoreError`` `badResponse` naming the text.
    init(parsing text: String) throws {
        var rest = Substring(text)
        isWeak = rest.hasPrefix("W/")
        if isWeak { rest = rest.dropFirst(2) }
        guard rest.count >= 2, rest.first == "\"", rest.last == "\"" else {
            throw OfflineStoreError(.badResponse, "the ETag \(text) is not a quoted entity tag (\"…\" or W/\"…\")")
        }
        let inner = rest.dropFirst().dropLast()
        guard !inner.unicodeScalars.contains(where: { $0 == "\"" || $0.value < 0x21 || $0.value == 0x7F }) else {
            throw OfflineStoreError(.badResponse, "the ETag \(text) holds a quote, a space or a control character")
        }
        self.text = text
        opaque = String(inner)
    }

    /// The value of `If-Match` for a write based on this version.
    var ifMatch: String { text }

    /// Whether both name the same version (weak comparison: `W/"3"` and `"3"` do).
    func sameVersion(as other: ODataETag) -> Bool { opaque == other.opaque }

    /// The ETag of one answer: the `ETag` header and the body's `@odata.etag`, which must
    /// name the same version when both are there; nil when neither is.
    ///
    /// - Throws: ``OfflineStoreError`` `badResponse` for a malformed ETag or two that differ.
    static func of(header: String?, annotation: String?) throws -> ODataETag? {
        let fromHeader = try header.map(ODataETag.init(parsing:))
        let fromBody = try annotation.map(ODataETag.init(parsing:))
        if let fromHeader, let fromBody, !fromHeader.sameVersion(as: fromBody) {
            throw OfflineStoreError(.badResponse, "the ETag header \(fromHeader.text) and the body's @odata.etag "
                + "\(fromBody.text) name different versions")
        }
        return fromHeader ?? fromBody
    }
}
