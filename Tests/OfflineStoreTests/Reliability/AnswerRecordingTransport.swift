import Foundation
import OfflineStore

/// Passes requests on and remembers each exchange: the request, the answer's status, and
/// the cluster node that served it (the `X-Kinto-Node` header scripts/cluster's haproxy
/// adds; nil where an answer has none).
final class AnswerRecordingTransport: HTTPTransport {
    /// One request and what came back.
    struct Exchange: Sendable {
        var request: HTTPRequest
        var status: Int
        var node: String?
    }

    private let base: any HTTPTransport
    private let recorded = Locked<[Exchange]>([])

    init(base: any HTTPTransport = URLSessionTransport()) { self.base = base }

    /// Every exchange so far, in the order the answers came.
    var exchanges: [Exchange] { recorded.withLock { $0 } }

    /// The serving node of every answer so far, in order.
    var nodes: [String?] { exchanges.map(\.node) }

    /// Forgets what was recorded.
    func reset() { recorded.withLock { $0.removeAll() } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response = try await base.send(request)
        recorded.withLock { $0.append(Exchange(request: request, status: response.status, node: response.header("X-Kinto-Node"))) }
        return response
    }
}
