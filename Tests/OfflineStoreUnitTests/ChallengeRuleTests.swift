import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import OfflineStore
import Testing

/// What the transport answers to each kind of authentication challenge, on each Foundation.
@Suite("Challenge rule")
struct ChallengeRuleTests {
    typealias Rule = ChallengeRule

    // corelibs marks these two constants unavailable (it never raises such challenges);
    // Apple's Foundation defines them as their own names.
    static let serverTrust = "NSURLAuthenticationMethodServerTrust"
    static let clientCertificate = "NSURLAuthenticationMethodClientCertificate"

    /// Server trust: the system verifies the certificate, on both Foundations (Apple's raises
    /// it for every TLS connection; cancelling it failed every HTTPS request there).
    @Test(arguments: [Rule.Foundation.apple, .corelibs])
    func serverTrustGetsTheDefaultHandling(_ foundation: Rule.Foundation) {
        #expect(Rule(method: Self.serverTrust, hasResponse: false, foundation: foundation).answer
                == .performDefaultHandling)
    }

    @Test(arguments: [Rule.Foundation.apple, .corelibs])
    func aClientCertificateRequestGetsTheDefaultHandling(_ foundation: Rule.Foundation) {
        #expect(Rule(method: Self.clientCertificate, hasResponse: false, foundation: foundation).answer
                == .performDefaultHandling)
    }

    static let httpMethods = [
        NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest, NSURLAuthenticationMethodNTLM,
        NSURLAuthenticationMethodNegotiate, NSURLAuthenticationMethodHTMLForm, NSURLAuthenticationMethodDefault,
    ]

    /// An HTTP authentication challenge on Apple's Foundation: the default handling finds no
    /// credential (the session keeps none) and delivers the 401 with its body.
    @Test(arguments: httpMethods)
    func anHTTPChallengeOnAppleFoundationDeliversTheRefusal(_ method: String) {
        #expect(Rule(method: method, hasResponse: true, foundation: .apple).answer == .performDefaultHandling)
    }

    /// The same challenge on corelibs, which hangs on the default handling: cancelled, its
    /// answer kept and returned.
    @Test(arguments: httpMethods)
    func anHTTPChallengeOnCorelibsIsCancelledKeepingTheAnswer(_ method: String) {
        #expect(Rule(method: method, hasResponse: true, foundation: .corelibs).answer == .cancelKeepingResponse)
        #expect(Rule(method: method, hasResponse: false, foundation: .corelibs).answer == .performDefaultHandling,
                "without an answer to keep, cancelling would lose the request")
    }

    @Test(arguments: [Rule.Foundation.apple, .corelibs])
    func aKindTheRuleDoesNotKnowGetsTheDefaultHandling(_ foundation: Rule.Foundation) {
        #expect(Rule(method: "NSURLAuthenticationMethodSomethingNew", hasResponse: true, foundation: foundation).answer
                == .performDefaultHandling)
    }

    @Test func theCurrentFoundationIsTheOneThisBuildLinks() {
        #if canImport(FoundationNetworking)
        #expect(Rule.Foundation.current == .corelibs)
        #else
        #expect(Rule.Foundation.current == .apple)
        #endif
    }
}

/// A plain-HTTP request that App Transport Security blocks is a configuration error that
/// says what to change, not "offline".
@Suite("App Transport Security refusal")
struct AppTransportSecurityTests {
    @Test func anATSRefusalIsATypedConfigurationError() throws {
        let url = try #require(URL(string: "http://sync.example.com/v1/buckets"))
        let urlError = URLError(.appTransportSecurityRequiresSecureConnection, userInfo: [NSURLErrorFailingURLErrorKey: url])
        let transportError = URLSessionTransport.transportError(urlError)
        #expect(transportError.kind == .blockedByAppTransportSecurity)
        #expect(transportError.message.contains("sync.example.com"))

        let error = OfflineStoreError(transport: transportError, while: "pushing todos")
        #expect(error.code == .configuration)
        #expect(error.message.contains("https://"), "\(error.message)")
        #expect(error.message.contains("NSAppTransportSecurity"), "\(error.message)")
        #expect(error.underlyingError as? TransportError == transportError)
    }

    @Test func otherTransportFailuresKeepTheirCodes() {
        #expect(OfflineStoreError(transport: TransportError(.cannotConnect, "x"), while: "a").code == .offline)
        #expect(OfflineStoreError(transport: TransportError(.timedOut, "x"), while: "a").code == .timeout)
        #expect(OfflineStoreError(transport: TransportError(.connectionLost, "x"), while: "a").code == .timeout)
        #expect(OfflineStoreError(transport: TransportError(.other, "x"), while: "a").code == .offline)
    }

    /// Only a failure known to come before the request went out reads as "not sent"; one that
    /// can come after it (a body cut short: corelibs' `unknown`) reads as "the server may have
    /// applied it", so a push is resent as it was and watched, never taken as unseen.
    @Test("URL errors map to what the server may have seen", arguments: [
        (URLError.Code.cannotConnectToHost, TransportError.Kind.cannotConnect),
        (.notConnectedToInternet, .cannotConnect), (.dnsLookupFailed, .cannotConnect),
        (.timedOut, .timedOut),
        (.networkConnectionLost, .connectionLost), (.unknown, .connectionLost),
        (.badServerResponse, .connectionLost), (.cannotParseResponse, .connectionLost),
        (.zeroByteResource, .connectionLost), (.cannotDecodeContentData, .connectionLost),
        (.badURL, .other), (.unsupportedURL, .other), (.secureConnectionFailed, .other),
        (.serverCertificateUntrusted, .other),
    ])
    func urlErrorKinds(code: URLError.Code, kind: TransportError.Kind) {
        #expect(URLSessionTransport.transportError(URLError(code)).kind == kind)
    }
}
