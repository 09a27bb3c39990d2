import Foundation

/// One answer of a REST server: status, lowercased headers, body text, and the body as
/// JSON (nil when empty).
package struct RESTReply: Sendable {
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
    package init(_ response: HTTPResponse) {
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
    package var etag: String? { header("ETag").map(KintoReply.unquote) }

    /// `Retry-After` in seconds.
    package var retryAfter: Duration? { KintoBackoff.duration(header("Retry-After")) }

    /// The body as JSON, which must be there and well-formed.
    ///
    /// - Throws: ``OfflineStoreError/Code/badResponse`` for an empty or malformed body.
    func requireJSON(_ what: String) throws -> JSONValue {
        if let json { return json }
        throw badResponse(what)
    }

    /// The typed error for an answer that is not what the protocol promises.
    package func badResponse(_ what: String) -> OfflineStoreError {
        let why = htmlTitle.map { "the body is an HTML page (\"\($0)\"), not JSON" }
            ?? jsonError.map { "the body is not JSON (\($0))" } ?? "the body is empty"
        return OfflineStoreError(.badResponse, "\(what): \(why)", status: status, body: String(summary.prefix(2000)))
    }

    /// The error for a whole request that failed: 401 `unauthorized`, 403 `forbidden`, else
    /// `server`; an HTML error page is told by its status and title, not its markup.
    package func error(_ what: String) -> OfflineStoreError {
        if status == 403 {
            return OfflineStoreError(.forbidden, "\(what): the user is not allowed to access this resource (HTTP 403)",
                                     status: status, body: summary)
        }
        if status == 401 {
            return OfflineStoreError(.unauthorized, "\(what): the server refused the credentials (HTTP \(status))",
                                     status: status, body: summary)
        }
        return OfflineStoreError(.server, "\(what): \(statusLine)", status: status, body: summary, retryAfter: retryAfter)
    }

    /// "HTTP 500", followed by an HTML page's title: `HTTP 500 "Server Error (500)"`.
    var statusLine: String {
        guard let title = htmlTitle else { return "HTTP \(status)" }
        return "HTTP \(status) \"\(title)\""
    }

    /// The body as kept on errors and failed entries: an HTML page's title (its markup can be
    /// hundreds of kilobytes of a debug page), else the text.
    var summary: String {
        htmlTitle ?? text
    }

    /// The title of an HTML body (`<title>`, else the first `<h1>`), whitespace collapsed and
    /// the common entities decoded; nil when the body is not HTML.
    package var htmlTitle: String? {
        let type = header("Content-Type")?.lowercased() ?? ""
        let start = text.prefix(512).drop { $0.isWhitespace }.lowercased()
        guard json == nil, type.contains("html") || start.hasPrefix("<!doctype html") || start.hasPrefix("<html") else { return nil }
        for tag in ["title", "h1"] {
            guard let open = text.range(of: "<\(tag)", options: .caseInsensitive),
                  let close = text.range(of: ">", range: open.upperBound..<text.endIndex),
                  let end = text.range(of: "</\(tag)>", options: .caseInsensitive, range: close.upperBound..<text.endIndex)
            else { continue }
            let words = text[close.upperBound..<end.lowerBound].split(whereSeparator: \.isWhitespace).joined(separator: " ")
            let title = [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&#x27;", "'"), ("&amp;", "&")]
                .reduce(words) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
            // Shortened, it may end on the space between two words.
            if !title.isEmpty { return String(title.prefix(200)).trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }

    /// A redirect, which a REST resource's route never expects: a `configuration` error naming
    /// where it pointed (a missing trailing slash, most often). Nil for other statuses.
    package func redirectError(_ method: String, _ url: URL, what: String) -> OfflineStoreError? {
        guard (300..<400).contains(status), status != 304 else { return nil }
        let target = header("Location").map { URL(string: $0, relativeTo: url)?.absoluteURL.absoluteString ?? $0 }
        var message = "\(what): \(method) \(url.absoluteString) was redirected (HTTP \(status))"
        if let target {
            message += " to \(target)"
            // URL.path drops a trailing slash: compare the components' paths.
            let path = URLComponents(string: target)?.path, asked = URLComponents(url: url, resolvingAgainstBaseURL: true)?.path ?? ""
            if path == asked + "/" {
                message += ": the route lacks its trailing slash"
            } else if let path, path + "/" == asked {
                message += ": the route has a trailing slash the server does not use"
            }
        }
        message += "; set the resource's path (and memberPath) to the URL the server answers at, and the base URL's scheme and host"
        return OfflineStoreError(.configuration, message, status: status, body: target)
    }

    /// The target of `Link: <…>; rel="next"` as the server wrote it (``RESTLinkHeader``), if any.
    package var nextLink: String? {
        header("Link").flatMap(RESTLinkHeader.next(in:))
    }
}
