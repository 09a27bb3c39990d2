import Foundation

extension HTTPTransport {
    /// Reads the file into memory and sends it as the body (transports that can stream override this).
    ///
    /// - Throws: ``TransportError`` (`other`) when the file cannot be read, or when no answer arrived.
    public func upload(_ request: HTTPRequest, fromFile file: URL) async throws -> HTTPResponse {
        var request = request
        do { request.body = try Data(contentsOf: file) } catch {
            throw TransportError(.other, "cannot read the upload body file: \(error)")
        }
        return try await send(request)
    }

    /// Sends the request and writes a 2xx answer's body to the file (transports that can stream override this).
    ///
    /// - Throws: ``TransportError`` (`other`) when the file cannot be written, or when no answer arrived.
    public func download(_ request: HTTPRequest, to file: URL) async throws -> HTTPResponse {
        var response = try await send(request)
        guard (200..<300).contains(response.status) else { return response }
        do { try response.body.write(to: file, options: .atomic) } catch {
            throw TransportError(.other, "cannot write the downloaded file: \(error)")
        }
        response.body = Data()
        return response
    }
}
