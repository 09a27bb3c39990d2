import Foundation

/// One answer of a REST server: status, lowercased headers, body text, and the body as
/// JSON (nil when empty).
struct RESTReply: Sendable {
    /// The HTTP status.
    var status: Int
    /// Header fields, names lowercased.
    var headers: [String: String]
    /// The body as text.
    var text: String
    /// The body as JSON; nil when empty.
    var json: JSONValue?
    /// Why a non-empty body is not JSON; nil when it is (or is empty).
    var jsonError: String?

    /// Reads a transport answer; a body that is not JSON is kept as text with ``jsonError`` set.
    init(_ response: HTTPResponse) {
        status = response.status
        headers = response.headers
        text = String(decoding: response.body, as: UTF8.self)
        let blank = response.body.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if !blank {
            do { json = try JSONValue(parsing: response.body) } catch { jsonError = String(describing: error) }
        }
    }

    /// Whether the status is 2xx.
    var isSuccess: Bool { (200..<300).contains(status) }

    /// The value of a header, compared without case.
    func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The `ETag` without quotes or a weak prefix.
    var etag: String? { header("ETag").map(KintoReply.unquote) }

    /// `Retry-After` in seconds.
    var retryAfter: Duration? { KintoBackoff.duration(header("Retry-After")) }

    /// The body as JSON, which must be there and well-formed.
    ///
    /// - Throws: ``OfflineStoreError/Code/badResponse`` for an empty or malformed body.
    func requireJSON(_ what: String) throws -> JSONValue {
        if let json { return json }
        throw badResponse(what)
    }

    /// The typed error for an answer that is not what the protocol promises.
    func badResponse(_ what: String) -> OfflineStoreError {
        let why = jsonError.map { "the body is not JSON (\($0))" } ?? "the body is empty"
        return OfflineStoreError(.badResponse, "\(what): \(why)", status: status, body: String(text.prefix(2000)))
    }

    /// The error for a whole request that failed: 401/403 `unauthorized`, else `server`.
    func error(_ what: String) -> OfflineStoreError {
        if status == 401 || status == 403 {
            return OfflineStoreError(.unauthorized, "\(what): the server refused the credentials (HTTP \(status))",
                                     status: status, body: text)
        }
        return OfflineStoreError(.server, "\(what): HTTP \(status)", status: status, body: text, retryAfter: retryAfter)
    }

    /// The URL of `Link: <…>; rel="next"`, if any.
    var nextLink: URL? {
        guard let link = header("Link") else { return nil }
        for part in link.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let target = pieces.first, target.hasPrefix("<"), target.hasSuffix(">"),
                  pieces.dropFirst().contains(where: { $0.replacingOccurrences(of: "\"", with: "") == "rel=next" })
            else { continue }
            return URL(string: String(target.dropFirst().dropLast()))
        }
        return nil
    }
}
