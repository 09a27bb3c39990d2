import Foundation
import OfflineStore

/// Passes requests on and remembers their paths and bodies, to check where a backend wrote.
final class RecordingTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let sent = Locked<[HTTPRequest]>([])

    init(base: any HTTPTransport) { self.base = base }

    /// The percent-encoded paths of every request so far.
    var paths: [String] {
        sent.withLock { $0.map { URLComponents(url: $0.url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? "" } }
    }

    /// Every request so far.
    var requests: [HTTPRequest] { sent.withLock { $0 } }

    /// The bodies of every request so far, as text.
    var bodies: [String] { sent.withLock { $0.compactMap { $0.body.map { String(decoding: $0, as: UTF8.self) } } } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        sent.withLock { $0.append(request) }
        return try await base.send(request)
    }
}
