import Foundation

extension HTTPTransport {
    /// Sends a request and reads a failure to get an answer as the engine does
    /// (``OfflineStoreError/init(transport:while:)``); cancellation and typed errors pass through.
    ///
    /// - Throws: `offline` (no connection, or an unknown failure before an answer),
    ///   `timeout` (the server may have applied the request), `CancellationError`.
    func send(_ request: HTTPRequest, while what: String) async throws -> HTTPResponse {
        do {
            return try await send(request)
        } catch let error as TransportError {
            throw OfflineStoreError(transport: error, while: what)
        } catch let error as CancellationError {
            throw error
        } catch let error as OfflineStoreError {
            throw error
        } catch {
            throw OfflineStoreError(.offline, "\(what): the request could not be sent", underlying: String(describing: error))
        }
    }
}
