import Foundation
import OfflineStore
import Synchronization

/// An ``HTTPTransport`` that counts what goes to the server: HTTP requests, and record
/// writes (a direct PUT/PATCH/POST/DELETE of a record, or each such item of a `/batch`).
final class CountingTransport: HTTPTransport {
    struct Counts { var requests = 0; var writes = 0 }

    private let inner: any HTTPTransport
    private let counts = Mutex(Counts())

    init(_ inner: any HTTPTransport = URLSessionTransport()) { self.inner = inner }

    /// The counts so far.
    var current: Counts { counts.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let writes = try Self.recordWrites(in: request)
        counts.withLock { $0.requests += 1; $0.writes += writes }
        return try await inner.send(request)
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
