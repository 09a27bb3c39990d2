import Foundation
import OfflineStore
import Synchronization

/// An ``HTTPTransport`` that counts what goes to the server: HTTP requests, record writes
/// (a direct PUT/PATCH/POST/DELETE of a record, or each such item of a `/batch`), and the
/// bytes of both directions as HTTP/1.1 messages (request line or status line, headers, body;
/// the transport's own headers such as `Host` and `Content-Length` not included).
final class CountingTransport: HTTPTransport {
    struct Counts: Sendable {
        var requests = 0, writes = 0
        var bytesSent = 0, bytesReceived = 0
        /// Answers without a body (a 304).
        var emptyAnswers = 0
        var bytes: Int { bytesSent + bytesReceived }

        static func - (a: Counts, b: Counts) -> Counts {
            Counts(requests: a.requests - b.requests, writes: a.writes - b.writes, bytesSent: a.bytesSent - b.bytesSent,
                   bytesReceived: a.bytesReceived - b.bytesReceived, emptyAnswers: a.emptyAnswers - b.emptyAnswers)
        }
    }

    private let inner: any HTTPTransport
    private let counts = Mutex(Counts())

    init(_ inner: any HTTPTransport = URLSessionTransport()) { self.inner = inner }

    /// The counts so far.
    var current: Counts { counts.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let writes = try Self.recordWrites(in: request)
        let sent = request.method.utf8.count + request.url.absoluteString.utf8.count + 11
            + request.headers.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count + 4 } + 2 + (request.body?.count ?? 0)
        counts.withLock { $0.requests += 1; $0.writes += writes; $0.bytesSent += sent }
        let response = try await inner.send(request)
        let received = 17 + response.headers.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 4 } + 2
            + response.body.count
        counts.withLock {
            $0.bytesReceived += received
            if response.body.isEmpty { $0.emptyAnswers += 1 }
        }
        return response
    }

    static func recordWrites(in request: HTTPRequest) throws -> Int {
        let path = request.url.path
        if path.hasSuffix("/batch"), let body = request.body {
            let items = try JSONValue(parsing: body)["requests"]?.arrayValue ?? []
            return items.filter { item in
                isWrite(item["method"]?.stringValue ?? "GET") && (item["path"]?.stringValue ?? "").contains("/records/")
            }.count
        }
        return isWrite(request.method) && path.contains("/records") ? 1 : 0
    }

    private static func isWrite(_ method: String) -> Bool {
        ["PUT", "PATCH", "POST", "DELETE"].contains(method.uppercased())
    }
}
