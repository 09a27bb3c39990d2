import Foundation

/// One answer of an OData service: status, lower-cased headers and the body's bytes, with
/// the typed errors a failed answer becomes (pure once received).
struct ODataReply: Sendable {
    /// The HTTP status.
    var status: Int
    /// Header fields, names lower-cased.
    var headers: [String: String]
    /// The body.
    var body: Data
    /// The body already parsed, for an answer read out of a `$batch` answer: its JSON is
    /// not written back to bytes to be parsed again. Nil for an answer of its own.
    var parsed: JSONValue?

    init(_ response: HTTPResponse) {
        status = response.status
        headers = response.headers
        body = response.body
    }

    /// One answer of a `$batch`: its JSON kept parsed, and written as bytes only where a
    /// failure's message needs them.
    init(_ response: ODataBatchResponse) {
        status = response.status
        headers = response.headers
        parsed = response.body
        body = (200..<300).contains(response.status) ? Data() : response.body.map { Data($0.serialized().utf8) } ?? Data()
    }

    init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        self.body = body
    }

    /// Whether the status is 2xx.
    var isSuccess: Bool { (200..<300).contains(status) }

    /// A header, compared without case.
    func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// `Retry-After` in seconds.
    var retryAfter: Duration? { KintoBackoff.duration(header("Retry-After")) }

    /// What the body of a failed answer holds (an OData error, HTML, plain text, …).
    var errorAnswer: ODataErrorAnswer { ODataErrorAnswer.read(body, contentType: header("Content-Type")) }

    /// "HTTP 412 (error 412: The If-Match precondition failed.)", the body named as what it is.
    var summary: String { "HTTP \(status) (\(errorAnswer.summary))" }

    /// The body as a JSON object, required.
    ///
    /// - Throws: ``OfflineStoreError/Code/badResponse`` naming what the body is instead
    ///   ("the server answered text/html, not JSON").
    func jsonObject(_ what: String) throws -> [String: JSONValue] {
        if let members = (parsed ?? (try? JSONValue(parsing: body)))?.objectValue { return members }
        throw OfflineStoreError(.badResponse, "\(what): \(notJSON)", status: status, body: String(errorAnswer.summary.prefix(2000)))
    }

    /// "the server answered text/html (an HTML page (Bad Gateway)), not JSON".
    var notJSON: String {
        let type = header("Content-Type").map { $0.split(separator: ";").first.map(String.init) ?? $0 } ?? "no content type"
        return "the server answered \(type) (\(errorAnswer.summary)), not JSON"
    }

    /// The typed error for a request that failed as a whole: 401 `unauthorized`, 403
    /// `forbidden`, 404 `notFound`, 428 `configuration` (the service requires `If-Match`), else
    /// `server` with `Retry-After`.
    func error(_ what: String) -> OfflineStoreError {
        let body = String(errorAnswer.summary.prefix(2000))
        switch status {
        case 401:
            return OfflineStoreError(.unauthorized, "\(what): the server refused the credentials (\(summary))", status: status, body: body)
        case 403:
            return OfflineStoreError(.forbidden, "\(what): the user is not allowed to do this (\(summary))", status: status, body: body)
        case 428:
            return OfflineStoreError(.configuration, "\(what): the service requires an If-Match header (HTTP 428) and the "
                + "write was sent without a version: the object has no ETag from the server (\(errorAnswer.summary))",
                                     status: status, body: body)
        default:
            return OfflineStoreError(.server, "\(what): \(summary)", status: status, body: body, retryAfter: retryAfter)
        }
    }
}
