import Foundation

/// Sends one HTTP request; the seam between backends and the network.
///
/// `URLSessionTransport` is the real one; tests may use their own.
public protocol HTTPTransport: Sendable {
    /// Sends the request and returns the answer, whatever its status.
    ///
    /// - Throws: ``TransportError`` when no answer arrived.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse

    /// Sends the request with the file's bytes as its body (the request's `body` is ignored),
    /// streamed from disk where the transport can. A default (in `HTTPTransport+Files.swift`)
    /// reads the file into memory and calls ``send(_:)``.
    ///
    /// - Throws: ``TransportError`` when no answer arrived.
    func upload(_ request: HTTPRequest, fromFile file: URL) async throws -> HTTPResponse

    /// Sends the request and, for a 2xx answer, writes the body to `file` (replacing it);
    /// the returned answer's body is empty then. Other answers keep their body.
    /// A default (in `HTTPTransport+Files.swift`) calls ``send(_:)`` and writes the body.
    ///
    /// - Throws: ``TransportError`` when no answer arrived.
    func download(_ request: HTTPRequest, to file: URL) async throws -> HTTPResponse

    /// Sends the request and returns the answer as soon as its head arrived, its body
    /// following as a stream of chunks (a pull reads records as they arrive). A default (in
    /// `HTTPTransport+Stream.swift`) calls ``send(_:)`` and delivers the body as one chunk.
    ///
    /// - Throws: ``TransportError`` when no answer arrived; the body's stream throws one when
    ///   the connection breaks before its end.
    func stream(_ request: HTTPRequest) async throws -> HTTPStreamedResponse
}

/// An HTTP request.
public struct HTTPRequest: Sendable, Hashable {
    /// The method, e.g. "PUT".
    public var method: String
    /// The full URL.
    public var url: URL
    /// Header fields, in order.
    public var headers: [(String, String)] { get { headerPairs.map { ($0.name, $0.value) } } set { headerPairs = newValue.map { HeaderPair(name: $0.0, value: $0.1) } } }
    /// The body, if any.
    public var body: Data?
    /// How long to wait for the answer.
    public var timeout: Duration

    private var headerPairs: [HeaderPair]

    /// Creates a request.
    public init(method: String, url: URL, headers: [(String, String)] = [], body: Data? = nil, timeout: Duration = .seconds(30)) {
        self.method = method
        self.url = url
        self.headerPairs = headers.map { HeaderPair(name: $0.0, value: $0.1) }
        self.body = body
        self.timeout = timeout
    }

    /// The first value of a header, compared without case.
    public func header(_ name: String) -> String? {
        headerPairs.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    private struct HeaderPair: Sendable, Hashable { var name: String; var value: String }
}

/// An HTTP answer.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// Header fields with lowercased names.
    public var headers: [String: String]
    /// The body (possibly empty).
    public var body: Data

    /// Creates a response; header names are lowercased.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        self.body = body
    }

    /// The value of a header, compared without case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A request that got no HTTP answer.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why no answer arrived.
    public enum Kind: String, Sendable, Hashable {
        /// The connection could not be made (refused, unreachable, DNS, connect timeout): offline.
        case cannotConnect
        /// Connected, but the answer did not arrive in time; the server may have applied the request.
        case timedOut
        /// The connection broke after the request was sent; the server may have applied it.
        case connectionLost
        /// App Transport Security (Apple platforms) refused a plain-HTTP connection: the app's
        /// configuration must change (an `https://` URL or an Info.plist exception), retrying cannot help.
        case blockedByAppTransportSecurity
        /// A failure before the request was sent (TLS failure, bad URL, cancelled): the server did
        /// not see it. A transport that cannot tell whether the request went out reports
        /// ``connectionLost``, so that it is resent as it was and watched for a late delivery.
        case other
    }

    /// Why no answer arrived.
    public var kind: Kind
    /// The underlying description.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// "kind: message".
    public var description: String { "\(kind.rawValue): \(message)" }
}
