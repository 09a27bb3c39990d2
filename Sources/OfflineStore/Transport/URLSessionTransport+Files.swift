import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTransport {
    /// Sends the file as the body with an upload task, which reads it from disk in pieces,
    /// so memory stays bounded whatever the file's size. `Content-Length` is the file's size.
    ///
    /// - Throws: ``TransportError`` when no answer arrived, `CancellationError` when cancelled.
    public func upload(_ request: HTTPRequest, fromFile file: URL) async throws -> HTTPResponse {
        var prepared = urlRequest(for: request)
        prepared.httpBody = nil
        if let size = try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber {
            prepared.setValue(size.stringValue, forHTTPHeaderField: "Content-Length")
        }
        let urlRequest = prepared
        let session = self.session
        return try await run { running, finish in
            session.uploadTask(with: urlRequest, fromFile: file) { data, response, error in
                finish(Self.result(data, response, error, challenged: running.challenged(self.delegate)))
            }
        }
    }

    /// Downloads the body to a temporary file with a download task, then moves it to `file`
    /// (2xx answers only), so memory stays bounded. Other answers come back without a body.
    ///
    /// - Throws: ``TransportError`` when no answer arrived or the file cannot be moved,
    ///   `CancellationError` when cancelled.
    public func download(_ request: HTTPRequest, to file: URL) async throws -> HTTPResponse {
        let urlRequest = urlRequest(for: request)
        let session = self.session
        return try await run { running, finish in
            session.downloadTask(with: urlRequest) { location, response, error in
                var result = Self.result(nil, response, error, challenged: running.challenged(self.delegate))
                // The temporary file is removed when this handler returns: move it now.
                if case .success(let answer) = result, (200..<300).contains(answer.status) {
                    do {
                        guard let location else { throw TransportError(.other, "the download has no file") }
                        try? FileManager.default.removeItem(at: file)
                        try FileManager.default.moveItem(at: location, to: file)
                    } catch {
                        result = .failure(error as? TransportError ?? TransportError(.other, "cannot keep the downloaded file: \(error)"))
                    }
                }
                finish(result)
            }
        }
    }

    /// The `URLRequest` for a request, as every call of the transport sends it.
    func urlRequest(for request: HTTPRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.cachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        // Assigned, not passed to the initializer: corelibs Foundation ignores the initializer's value.
        urlRequest.timeoutInterval = Self.seconds(request.timeout)
        urlRequest.httpMethod = request.method
        urlRequest.httpShouldHandleCookies = false
        for (name, value) in request.headers { urlRequest.addValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        return urlRequest
    }

    /// Starts a task made by `make` and waits for it, cancelling it when the caller is cancelled.
    private func run(_ make: @escaping @Sendable (RunningTask, @escaping @Sendable (Result<HTTPResponse, any Error>) -> Void) -> URLSessionTask)
        async throws -> HTTPResponse {
        let running = RunningTask()
        let result: Result<HTTPResponse, any Error> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                running.start(make(running) { continuation.resume(returning: $0) })
            }
        } onCancel: {
            running.cancel()
        }
        if case .failure = result, running.wasCancelled { throw CancellationError() }
        return try result.get()
    }
}
