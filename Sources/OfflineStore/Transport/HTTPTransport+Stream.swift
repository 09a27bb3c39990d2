import Foundation

extension HTTPTransport {
    /// Sends the request with ``send(_:)`` and delivers its whole body as one chunk:
    /// for transports that cannot stream (test doubles).
    public func stream(_ request: HTTPRequest) async throws -> HTTPStreamedResponse {
        let response = try await send(request)
        return HTTPStreamedResponse(status: response.status, headers: response.headers, body: HTTPBodyStream(response.body))
    }
}
