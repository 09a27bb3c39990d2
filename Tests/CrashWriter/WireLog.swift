import Foundation
import OfflineStore

/// A transport that announces every request on standard output before sending it and
/// every answer after it arrived, so the parent can kill the process in the middle of a
/// flush: between "the server applied it" and "the store recorded it".
///
///     wire send <k> <METHOD> <path>
///     wire recv <k> <status>
///     wire fail <k> <kind>
struct WireLog: HTTPTransport {
    /// The transport that really sends.
    let base: any HTTPTransport
    /// Numbers the requests of this process.
    let counter = Counter()

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let k = counter.next()
        say("wire send \(k) \(request.method) \(request.url.path)")
        do {
            let response = try await base.send(request)
            say("wire recv \(k) \(response.status)")
            return response
        } catch let error as TransportError {
            say("wire fail \(k) \(error.kind.rawValue)")
            throw error
        }
    }
}

/// A thread-safe request counter.
final class Counter: Sendable {
    private let value = Locked(0)

    /// The next number, starting at 1.
    func next() -> Int { value.withLock { $0 += 1; return $0 } }
}
