import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real ``HTTPTransport``: one `URLSession` with an ephemeral configuration
/// (no cookies, no cache, no stored credentials) and TLS verification left on.
///
/// Redirects are followed only to the same scheme, host and port, so credentials
/// are never sent to another server.
public struct URLSessionTransport: HTTPTransport {
    /// Header names read explicitly from every answer (backends look these up).
    static let knownHeaders = [
        "ETag", "Next-Page", "Backoff", "Retry-After", "Content-Type", "Total-Records",
        "Total-Objects", "Location", "Link", "Alert", "Last-Modified", "WWW-Authenticate",
    ]

    private let session: URLSession

    /// Creates a transport with its own ephemeral session.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        session = URLSession(configuration: configuration, delegate: SameOriginRedirects(), delegateQueue: nil)
    }

    /// Sends the request and returns the answer, whatever its status.
    ///
    /// - Throws: ``TransportError`` when no answer arrived, `CancellationError` when the task was cancelled.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(
            url: request.url,
            cachePolicy: .reloadIgnoringLocalAndRemoteCacheData,
            timeoutInterval: Self.seconds(request.timeout))
        urlRequest.httpMethod = request.method
        urlRequest.httpShouldHandleCookies = false
        for (name, value) in request.headers {
            urlRequest.addValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body

        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch let error as URLError {
            if error.code == .cancelled, Task.isCancelled { throw CancellationError() }
            throw Self.transportError(error)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw TransportError(.other, String(describing: error))
        }
        guard let http = response as? HTTPURLResponse else {
            throw TransportError(.other, "the answer is not an HTTP response")
        }
        return HTTPResponse(status: http.statusCode, headers: Self.headers(of: http), body: data)
    }

    /// All header fields of an answer, lowercased, with the known names read explicitly.
    static func headers(of response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (key, value) in response.allHeaderFields {
            guard let name = key as? String else { continue }
            headers[name.lowercased()] = value as? String ?? String(describing: value)
        }
        for name in knownHeaders {
            if let value = response.value(forHTTPHeaderField: name) {
                headers[name.lowercased()] = value
            }
        }
        return headers
    }

    /// Maps a `URLError` to the transport's kinds of failure.
    static func transportError(_ error: URLError) -> TransportError {
        let message = "\(error.code.rawValue): \(error.localizedDescription)"
        switch error.code {
        case .cannotConnectToHost, .cannotFindHost, .notConnectedToInternet, .dnsLookupFailed,
             .internationalRoamingOff, .callIsActive, .dataNotAllowed, .cannotLoadFromNetwork:
            return TransportError(.cannotConnect, message)
        case .timedOut:
            return TransportError(.timedOut, message)
        case .networkConnectionLost:
            return TransportError(.connectionLost, message)
        default:
            return TransportError(.other, message)
        }
    }

    /// A duration in seconds, at least one millisecond.
    static func seconds(_ duration: Duration) -> TimeInterval {
        let (whole, attoseconds) = duration.components
        return max(0.001, Double(whole) + Double(attoseconds) / 1e18)
    }
}

/// Refuses redirects that leave the original scheme, host and port.
///
/// Stateless, so sharing it between tasks is safe.
private final class SameOriginRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let from = task.originalRequest?.url
        let to = request.url
        let sameOrigin = from?.scheme?.lowercased() == to?.scheme?.lowercased()
            && from?.host?.lowercased() == to?.host?.lowercased()
            && from?.port == to?.port
        completionHandler(sameOrigin ? request : nil)
    }
}
