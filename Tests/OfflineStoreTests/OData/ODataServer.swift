import Foundation
import Testing
@testable import OfflineStore

/// The OData test server the OData tests run against (Fixtures/odata-server, started by
/// `scripts/odata-server` from `scripts/test`) in its two modes: delta (`ODATA_URL`) and plain
/// (`ODATA_PLAIN_URL`, started with pages of 5). Docs/ODataFacts.md says how the modes differ.
enum ODataServer {
    /// The two modes of the fixture.
    enum Mode: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case delta, plain

        /// The variable holding the mode's service root.
        var variable: String { self == .delta ? "ODATA_URL" : "ODATA_PLAIN_URL" }
        var testDescription: String { rawValue }
    }

    /// Why the OData tests cannot run.
    struct NotConfigured: Error, CustomStringConvertible {
        let variable: String
        var description: String { "\(variable) is not set: run the suite through scripts/test, which starts the OData servers" }
    }

    /// The service root of a mode.
    ///
    /// - Throws: ``NotConfigured`` when it is unset; tests never skip silently.
    static func url(_ mode: Mode) throws -> URL {
        guard let text = ProcessInfo.processInfo.environment[mode.variable], !text.isEmpty, let url = URL(string: text) else {
            throw NotConfigured(variable: mode.variable)
        }
        return url
    }

    /// The service root of the plain-mode server kept for tests that fix the server's clock
    /// (`ODATA_CLOCK_URL`): a fixed clock gives every write one timestamp, so on a shared
    /// server it would hide another test's conflict.
    ///
    /// - Throws: ``NotConfigured`` when it is unset; tests never skip silently.
    static func clockURL() throws -> URL {
        guard let text = ProcessInfo.processInfo.environment["ODATA_CLOCK_URL"], !text.isEmpty, let url = URL(string: text) else {
            throw NotConfigured(variable: "ODATA_CLOCK_URL")
        }
        return url
    }

    /// `Authorization: Basic …` of a fixture user (`writer` or `reader`).
    static func authorization(_ user: String) -> String {
        "Basic " + Data("\(user):\(user)".utf8).base64EncodedString()
    }

    /// A backend on a mode's service, signed in as `user`.
    static func backend(_ mode: Mode, user: String = "writer",
                        transport: any HTTPTransport = URLSessionTransport(followingRedirects: false),
                        maxBatchSize: Int = 50) throws -> ODataBackend {
        ODataBackend(configuration: .init(serviceRoot: try url(mode), headers: ["Authorization": authorization(user)],
                                          timeout: .seconds(60), maxBatchSize: maxBatchSize), transport: transport)
    }

    /// Sends a request as another client would (as `writer`); returns the status, the JSON body and the headers.
    @discardableResult
    static func request(_ mode: Mode, _ method: String, _ path: String, _ body: JSONValue? = nil,
                        headers: [(String, String)] = []) async throws -> (status: Int, json: JSONValue?, headers: [String: String]) {
        var all = headers + [("Accept", "application/json"), ("Authorization", authorization("writer"))]
        if body != nil { all.append(("Content-Type", "application/json")) }
        let target = try url(mode).absoluteString + "/" + path
        guard let address = URL(string: target) else { throw NotConfigured(variable: "a URL for \(path)") }
        let request = HTTPRequest(method: method, url: address, headers: all,
                                  body: body.map { Data($0.serialized().utf8) }, timeout: .seconds(60))
        let response = try await URLSessionTransport(followingRedirects: false).send(request)
        let json = response.body.isEmpty ? nil : try? JSONValue(parsing: response.body)
        return (response.status, json, response.headers)
    }

    /// The tasks whose `Title` is `title`, as the server lists them (every page).
    static func tasks(_ mode: Mode, titled title: String) async throws -> [JSONValue] {
        let filter = "Title eq '\(title)'".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        var tasks: [JSONValue] = []
        var page = try await request(mode, "GET", "Tasks?$filter=\(filter)").json
        while true {
            tasks += page?["value"]?.arrayValue ?? []
            guard let next = page?["@odata.nextLink"]?.stringValue, let range = next.range(of: try url(mode).absoluteString + "/")
            else { return tasks }
            page = try await request(mode, "GET", String(next[range.upperBound...])).json
        }
    }

    /// A title no other test uses.
    static func uniqueTitle(_ prefix: String) -> String {
        prefix + "-" + String(UInt64.random(in: .min ... .max), radix: 36)
    }
}

/// A transport that runs a hook once before the first request matching a test, then forwards
/// everything: a change made by another client between two pages of a pull.
final class ODataHookTransport: HTTPTransport {
    private let base = URLSessionTransport(followingRedirects: false)
    private let state: Locked<(matches: @Sendable (HTTPRequest) -> Bool, hook: (@Sendable () async throws -> Void)?)>
    private let lines = Locked<[String]>([])

    init(before matches: @escaping @Sendable (HTTPRequest) -> Bool, run hook: @escaping @Sendable () async throws -> Void) {
        state = Locked((matches, hook))
    }

    /// "METHOD path?query" of every request, in order.
    var requestLines: [String] { lines.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        lines.withLock { $0.append(request.method + " " + request.url.path + (request.url.query.map { "?" + $0 } ?? "")) }
        let hook = state.withLock { current -> (@Sendable () async throws -> Void)? in
            guard let hook = current.hook, current.matches(request) else { return nil }
            current.hook = nil
            return hook
        }
        try await hook?()
        return try await base.send(request)
    }
}
