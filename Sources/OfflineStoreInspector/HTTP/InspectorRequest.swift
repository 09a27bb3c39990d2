import Foundation
import OfflineStore

/// One HTTP/1.1 request as the inspector's router sees it: method, path, decoded query
/// parameters, headers (names lowercased) and the body.
public struct InspectorRequest: Sendable, Hashable {
    /// The method, uppercased as sent (`GET`, `POST`).
    public var method: String
    /// The path of the request target, without the query (e.g. `/api/objects`); never decoded.
    public var path: String
    /// The query parameters, percent-decoded (`+` is a space); a repeated name keeps the last value.
    public var query: [String: String]
    /// The header fields, names lowercased; a repeated name keeps the last value.
    public var headers: [String: String]
    /// The body bytes (empty without `Content-Length`).
    public var body: [UInt8]

    /// A request built in code (tests, the server's parser).
    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
                body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    /// The limits the parser enforces, so a client cannot make the process hold unbounded data.
    public enum Limits {
        /// The request line and headers, in bytes.
        public static let head = 16 * 1024
        /// The body, in bytes.
        public static let body = 1024 * 1024
    }
}

/// Why a request could not be read; the server answers 400 (or 413) with the message.
public struct HTTPParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The status to answer with.
    public var status: Int
    /// What was wrong, in words.
    public var message: String

    /// A parse error with its status.
    public init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }

    /// A malformed request (400).
    public init(_ message: String) {
        self.init(400, message)
    }

    /// The message.
    public var description: String { message }
}

extension InspectorRequest {
    /// Reads the request line and headers of `head` (everything before the blank line).
    ///
    /// - Returns: the request without its body, and the `Content-Length` to read next.
    /// - Throws: ``HTTPParseError`` for a malformed request line or header, a target that is
    ///   not an origin-form path, chunked bodies, or a body above ``Limits/body``.
    package static func parseHead(_ head: [UInt8]) throws -> (InspectorRequest, contentLength: Int) {
        guard let text = UTF8Validation.string(head) else {
            throw HTTPParseError("the request head is not valid UTF-8")
        }
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        guard !lines.isEmpty else { throw HTTPParseError("empty request") }
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1."), !requestLine[0].isEmpty else {
            throw HTTPParseError("malformed request line")
        }
        let target = String(requestLine[1])
        guard target.hasPrefix("/") else { throw HTTPParseError("the request target must be a path starting with /") }
        var headers: [String: String] = [:]
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw HTTPParseError("malformed header line")
            }
            let name = line[..<colon].lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        if headers["transfer-encoding"] != nil {
            throw HTTPParseError(501, "chunked request bodies are not supported; send Content-Length")
        }
        var length = 0
        if let value = headers["content-length"] {
            guard let parsed = Int(value), parsed >= 0 else { throw HTTPParseError("Content-Length is not a number") }
            guard parsed <= Limits.body else {
                throw HTTPParseError(413, "the request body is larger than \(Limits.body) bytes")
            }
            length = parsed
        }
        let (path, query) = try splitTarget(target)
        return (InspectorRequest(method: String(requestLine[0]), path: path, query: query, headers: headers), length)
    }

    /// Splits `/path?a=1&b=x%20y` into the path and its decoded parameters.
    static func splitTarget(_ target: String) throws -> (String, [String: String]) {
        guard let mark = target.firstIndex(of: "?") else { return (target, [:]) }
        var query: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), let value = decode(parts.count > 1 ? parts[1] : "") else {
                throw HTTPParseError("the query parameter '\(parts[0])' is not valid percent-encoding")
            }
            query[name] = value
        }
        return (String(target[..<mark]), query)
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
