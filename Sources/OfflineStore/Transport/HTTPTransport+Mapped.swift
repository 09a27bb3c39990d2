import Foundation

extension HTTPTransport {
    /// Sends a request and reads a failure to get an answer as the engine does
    /// (``OfflineStoreError/init(transport:while:)``); cancellation and typed errors pass through.
    ///
    /// - Throws: `offline` (no connection, or a failure known to come before the request went
    ///   out), `timeout` (the server may have applied the request), `CancellationError`.
    func send(_ request: HTTPRequest, while what: String) async throws -> HTTPResponse {
        try await mappingFailures(while: what) { try await send(request) }
    }

    /// Sends a request whose body is a file, failures read like ``send(_:while:)``.
    func upload(_ request: HTTPRequest, fromFile file: URL, while what: String) async throws -> HTTPResponse {
        try await mappingFailures(while: what) { try await upload(request, fromFile: file) }
    }

    /// Streams an answer's body into a file, failures read like ``send(_:while:)``.
    func download(_ request: HTTPRequest, to file: URL, while what: String) async throws -> HTTPResponse {
        try await mappingFailures(while: what) { try await download(request, to: file) }
    }

    private func mappingFailures(while what: String, _ body: () async throws -> HTTPResponse) async throws -> HTTPResponse {
        try await mappingTransportFailures(while: what, body)
    }
}

/// Runs `body`, reading a failure to get an answer as the engine does
/// (``OfflineStoreError/init(transport:while:)``); cancellation and typed errors pass through.
func mappingTransportFailures<Answer>(while what: String, _ body: () async throws -> Answer) async throws -> Answer {
    do {
        return try await body()
    } catch let error as TransportError {
        throw OfflineStoreError(transport: error, while: what)
    } catch let error as CancellationError {
        throw error
    } catch let error as OfflineStoreError {
        throw error
    } catch {
        // A transport that breaks its contract (``TransportError`` only) cannot say whether
        // the request went out: read it as one the server may have applied.
        throw OfflineStoreError(transport: TransportError(.connectionLost, String(describing: error)), while: what)
    }
}
