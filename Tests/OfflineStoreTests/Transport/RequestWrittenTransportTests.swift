import Foundation
import Testing
@testable import OfflineStore

/// ``URLSessionTransport`` fires the ``RequestWritten`` signal it is given when the request
/// went out, before its answer, on a real socket; the answers are the ones it gives without a signal.
@Suite("Transport reports a request written", .timeLimit(.minutes(3)))
struct RequestWrittenTransportTests {
    /// The server answers only after the signal fired: were the body reported with the
    /// answer instead, the release would never come and the server would answer 504.
    @Test func aBodyIsReportedWrittenBeforeTheAnswer() async throws {
        let body = Data(#"{"requests":[]}"#.utf8)
        let (release, answer) = try await HoldingHTTPServer.with { server in
            let transport = URLSessionTransport(), written = RequestWritten()
            async let held = RequestWritten.$current.withValue(written) {
                try await transport.send(HTTPRequest(method: "POST", url: server.url("hold"), body: body))
            }
            await written.wait()
            let release = try await URLSessionTransport().send(HTTPRequest(method: "GET", url: server.url("release")))
            return (release, try await held)
        }
        #expect(release.status == 200)
        #expect(answer.status == 200, "504: the request was not reported written before its answer")
        #expect(answer.body == body)
    }

    /// An HTTP challenge still comes back as the server's 401 with its challenge header, and
    /// its body (the session's delegate hears it; without a signal, corelibs Foundation drops it).
    @Test func aChallengeComesBackAsTheServersAnswer() async throws {
        let answer = try await HoldingHTTPServer.with { server in
            try await RequestWritten.$current.withValue(RequestWritten()) {
                try await URLSessionTransport().send(HTTPRequest(method: "POST", url: server.url("challenge"), body: Data("x".utf8)))
            }
        }
        #expect(answer.status == 401)
        #expect(answer.header("WWW-Authenticate") == #"Basic realm="test""#)
        #expect(String(decoding: answer.body, as: UTF8.self) == "who are you")
    }

    /// A request without a body is reported once started: the server holds its answer until
    /// the signal fired (504 otherwise).
    @Test func aRequestWithoutABodyIsReportedOnceStarted() async throws {
        let answer = try await HoldingHTTPServer.with { server in
            let transport = URLSessionTransport(), written = RequestWritten()
            async let held = RequestWritten.$current.withValue(written) {
                try await transport.send(HTTPRequest(method: "GET", url: server.url("hold")))
            }
            await written.wait()
            _ = try await URLSessionTransport().send(HTTPRequest(method: "GET", url: server.url("release")))
            return try await held
        }
        #expect(answer.status == 200, "504: the request was not reported before its answer")
    }
}
