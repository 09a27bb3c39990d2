import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What ``URLSessionTransport`` answers to an authentication challenge: a pure rule, one
/// decision per kind of challenge and per Foundation.
///
/// The store answers only one kind itself: HTTP authentication (a 401 or 407 with
/// `WWW-Authenticate`). It sends its credentials up front, so the answer it wants is the
/// refusal itself, which its backend turns into `unauthorized` (and a token refresh). Every
/// other challenge — above all *server trust*, which Apple's URLSession raises for every
/// TLS connection, at the task level when the delegate has no session-level method — gets
/// the system's default handling, so certificate verification stays the system's.
///
/// The two Foundations differ in what the default handling of an HTTP challenge does:
/// - Apple's Foundation finds no credential (the session has no credential storage) and
///   completes the task with the 401 and its body;
/// - swift-corelibs-foundation (Linux) hangs on it, so the challenge is cancelled and the
///   answer that raised it is kept (without its body where the task has a completion
///   handler, to which corelibs does not deliver it; the session's delegate receives it).
///   corelibs never raises server-trust challenges: libcurl verifies certificates itself.
struct ChallengeRule: Sendable, Hashable {
    /// The decision.
    enum Answer: Sendable, Hashable {
        /// `.performDefaultHandling`: as if the delegate had no challenge method.
        case performDefaultHandling
        /// `.cancelAuthenticationChallenge`, keeping the answer that raised the challenge
        /// so the transport returns it as the request's answer.
        case cancelKeepingResponse
    }

    /// Which Foundation runs the session.
    enum Foundation: Sendable, Hashable {
        /// Apple's Foundation (macOS, iOS, tvOS, watchOS, visionOS).
        case apple
        /// swift-corelibs-foundation (Linux).
        case corelibs

        /// The Foundation this process runs on.
        static var current: Foundation {
            #if canImport(FoundationNetworking)
            .corelibs
            #else
            .apple
            #endif
        }
    }

    /// The challenge's authentication method (`URLProtectionSpace.authenticationMethod`).
    let method: String
    /// Whether the challenge came with an HTTP answer (a 401 or 407).
    let hasResponse: Bool
    /// The Foundation that raised it.
    let foundation: Foundation

    /// The methods of HTTP authentication: the store answers those itself.
    static let httpAuthenticationMethods: Set<String> = [
        NSURLAuthenticationMethodDefault, NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest,
        NSURLAuthenticationMethodHTMLForm, NSURLAuthenticationMethodNTLM, NSURLAuthenticationMethodNegotiate,
    ]

    /// What to answer.
    var answer: Answer {
        guard Self.httpAuthenticationMethods.contains(method) else {
            // Server trust, client certificates and anything newer: the system decides.
            return .performDefaultHandling
        }
        switch foundation {
        case .apple: return .performDefaultHandling
        case .corelibs: return hasResponse ? .cancelKeepingResponse : .performDefaultHandling
        }
    }
}
