import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real ``HTTPTransport``: one `URLSession` with an ephemeral configuration
/// (no cookies, no cache, no stored credentials) and TLS verification left on.
///
/// Redirects are followed only to the same scheme, host and port, so credentials
/// are never sent to another server. Authentication challenges follow a pure rule (`ChallengeRule`):
/// server trust (and every challenge the store does not answer itself) gets the system's
/// default handling, so TLS is verified as the platform verifies it; an HTTP
/// authentication challenge (401 with `WWW-Authenticate`) is returned as the answer, on
/// Linux without its body (corelibs Foundation does not deliver it to a task with a completion
/// handler; a streamed answer keeps it, and so does a push with a body from a backend that
/// reports its requests written, ``RequestWritten``). A plain-HTTP request
/// that App Transport Security blocks is a ``TransportError/Kind/blockedByAppTransportSecurity``.
public struct URLSessionTransport: HTTPTransport {
    /// Header names read explicitly from every answer (backends look these up).
    static let knownHeaders = [
        "ETag", "Next-Page", "Backoff", "Retry-After", "Content-Type", "Total-Records",
        "Total-Objects", "Location", "Link", "Alert", "Last-Modified", "WWW-Authenticate",
    ]

    /// The session, owned by a box that invalidates it when the last copy of the transport
    /// goes away: an URLSession keeps its delegate and its idle connections until invalidated.
    private let owner: SessionOwner
    let delegate: SessionDelegate
    var session: URLSession { owner.session }

    /// Creates a transport with its own ephemeral session.
    ///
    /// - Parameter followingRedirects: false returns every 3xx answer as it is, for a caller
    ///   that treats a redirect as a mistake to report (`RESTBackend`: a route without its
    ///   trailing slash); true (the default) follows same-origin redirects.
    public init(followingRedirects: Bool = true) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        delegate = SessionDelegate(followsRedirects: followingRedirects)
        owner = SessionOwner(URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil))
    }

    /// Sends the request and returns the answer, whatever its status.
    ///
    /// When the flush waits to hear that the request went out (``RequestWritten/current``), a
    /// request with a body goes through the session's delegate, which hears when its body is
    /// sent (``stream(_:)``, its body collected): swift-corelibs-foundation reports sent body
    /// bytes only to a delegate, never for a task made with a completion handler. A request
    /// without a body reports it once started.
    ///
    /// - Throws: ``TransportError`` when no answer arrived, `CancellationError` when the task was cancelled.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let written = RequestWritten.current
        if written != nil, request.body?.isEmpty == false {
            return try await stream(request).collected()
        }
        let urlRequest = urlRequest(for: request)
        let running = RunningTask()
        let delegate = self.delegate
        let session = self.session
        let result: Result<HTTPResponse, any Error> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    continuation.resume(returning: Self.result(data, response, error, challenged: running.challenged(delegate)))
                }
                running.start(task)
                written?.fire()
            }
        } onCancel: {
            running.cancel()
        }
        if case .failure = result, running.wasCancelled { throw CancellationError() }
        return try result.get()
    }

    /// Turns a data task's completion into an answer or a transport error.
    static func result(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?,
                               challenged: HTTPURLResponse?) -> Result<HTTPResponse, any Error> {
        if let error {
            if let urlError = error as? URLError {
                // corelibs Foundation hangs on a 401/407 with an authentication challenge unless the
                // challenge is cancelled; the delegate kept that answer (its body is lost).
                if urlError.code == .cancelled, let challenged {
                    return .success(HTTPResponse(status: challenged.statusCode, headers: headers(of: challenged)))
                }
                return .failure(transportError(urlError))
            }
            return .failure(TransportError(.other, String(describing: error)))
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(TransportError(.other, "the answer is not an HTTP response"))
        }
        return .success(HTTPResponse(status: http.statusCode, headers: headers(of: http), body: data ?? Data()))
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
        // Failures that can come after the request went out, so the server may have applied it:
        // a broken connection, an answer cut short or unreadable. corelibs Foundation reports a
        // body that ends before its Content-Length (libcurl's partial file) as `unknown`.
        case .networkConnectionLost, .unknown, .badServerResponse, .cannotParseResponse, .zeroByteResource,
             .cannotDecodeRawData, .cannotDecodeContentData, .dataLengthExceedsMaximum, .downloadDecodingFailedMidStream:
            return TransportError(.connectionLost, message)
        case .appTransportSecurityRequiresSecureConnection:
            let host = error.failingURL?.host ?? "the server"
            return TransportError(.blockedByAppTransportSecurity, "\(host): \(message)")
        default:
            return TransportError(.other, message)
        }
    }

    /// A duration in whole seconds, rounded up, at least one: corelibs Foundation truncates
    /// the interval to whole seconds and treats less than one as "no timeout" or "time out now".
    /// At most ``maximumTimeout``: corelibs Foundation traps converting a huge interval.
    static func seconds(_ duration: Duration) -> TimeInterval {
        min(maximumTimeout, max(1, duration.timeInterval.rounded(.up)))
    }

    /// The longest timeout passed to URLSession: a week.
    static let maximumTimeout: TimeInterval = 7 * 86_400
}

/// The session's delegate: refuses redirects that leave the original scheme, host and
/// port, and answers authentication challenges as ``ChallengeRule`` says, keeping the
/// answer of a cancelled HTTP challenge so it can be returned as it is.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let challenged = Locked<[Int: HTTPURLResponse]>([:])
    /// The streamed tasks (``URLSessionTransport/stream(_:)``) by task identifier, until they complete.
    private let feeds = Locked<[Int: StreamFeed]>([:])
    /// Whether same-origin redirects are followed (others never are).
    let followsRedirects: Bool

    init(followsRedirects: Bool = true) {
        self.followsRedirects = followsRedirects
    }

    /// The answer that raised a challenge for this task, removed once read.
    func takeChallengedResponse(_ taskIdentifier: Int) -> HTTPURLResponse? {
        challenged.withLock { $0.removeValue(forKey: taskIdentifier) }
    }

    /// Routes a streamed task's events to `feed` (before the task starts).
    func register(_ feed: StreamFeed, for taskIdentifier: Int) {
        feeds.withLock { $0[taskIdentifier] = feed }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        feeds.withLock { $0[dataTask.taskIdentifier] }?.received(data, task: dataTask)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
                    totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        feeds.withLock { $0[task.taskIdentifier] }?.sentBody()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        feeds.withLock { $0.removeValue(forKey: task.taskIdentifier) }?.completed(task: task, error: error)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let response = (challenge.failureResponse ?? task.response) as? HTTPURLResponse
        let rule = ChallengeRule(method: challenge.protectionSpace.authenticationMethod, hasResponse: response != nil,
                                 foundation: .current)
        switch rule.answer {
        case .performDefaultHandling:
            completionHandler(.performDefaultHandling, nil)
        case .cancelKeepingResponse:
            if let response { challenged.withLock { $0[task.taskIdentifier] = response } }
            completionHandler(.cancelAuthenticationChallenge, nil)
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let from = task.originalRequest?.url
        let to = request.url
        let sameOrigin = from?.scheme?.lowercased() == to?.scheme?.lowercased()
            && from?.host?.lowercased() == to?.host?.lowercased()
            && from?.port == to?.port
        completionHandler(sameOrigin && followsRedirects ? request : nil)
    }
}

/// Owns one `URLSession` and invalidates it (after its running tasks finish) when released,
/// so a closed store leaves no open connections and no retained delegate behind.
final class SessionOwner: Sendable {
    let session: URLSession
    init(_ session: URLSession) { self.session = session }
    deinit { session.finishTasksAndInvalidate() }
}
