import Foundation
import OfflineStore

/// Answers every request with the same response: a hostile server for fuzzing.
struct ConstantTransport: HTTPTransport {
    let response: HTTPResponse

    func send(_ request: HTTPRequest) async throws -> HTTPResponse { response }
}
