import Foundation
import OfflineStore

/// The two real OData test services (Fixtures/odata-server, started by `scripts/odata-server`):
/// `ODATA_URL` in delta mode (odatapy's own behaviour) and `ODATA_PLAIN_URL` in plain mode
/// (no change tracking, timestamp ETags; Docs/ODataFacts.md). Tests that use them carry the
/// ``Testing/Trait/liveServer`` trait; an unset variable fails the test, never skips it.
enum ODataServers {
    /// The fixture's two modes.
    enum Mode: String, Sendable, CaseIterable {
        case delta, plain

        /// The environment variable holding the service root of this mode.
        var variable: String { self == .delta ? "ODATA_URL" : "ODATA_PLAIN_URL" }
    }

    /// Why the OData tests cannot run.
    struct NotConfigured: Error, CustomStringConvertible {
        var variable: String
        var description: String {
            "\(variable) is not set: run the suite through scripts/test, or start the fixture "
                + "(scripts/odata-server start --mode delta|plain) and export its service root"
        }
    }

    /// The fixture's users (basic auth): `writer` writes, `reader` only reads.
    static let writer = (user: "writer", password: "writer")

    /// The service root of `mode`.
    ///
    /// - Throws: ``NotConfigured`` when its variable is unset.
    static func url(_ mode: Mode) throws -> URL {
        guard let text = ProcessInfo.processInfo.environment[mode.variable], !text.isEmpty, let url = URL(string: text) else {
            throw NotConfigured(variable: mode.variable)
        }
        return url
    }

    /// Sends a request as another client would (as the writer); returns the status and the JSON body (nil when none).
    @discardableResult
    static func request(_ mode: Mode, _ method: String, _ target: String, _ body: JSONValue? = nil,
                        headers: [(String, String)] = []) async throws -> (status: Int, json: JSONValue?) {
        let credentials = Data("\(writer.user):\(writer.password)".utf8).base64EncodedString()
        var all = headers + [("Accept", "application/json"), ("Authorization", "Basic \(credentials)")]
        if body != nil { all.append(("Content-Type", "application/json")) }
        let root = try url(mode).absoluteString
        guard let url = URL(string: root + "/" + target) else { throw NotConfigured(variable: "a URL for \(target)") }
        let response = try await URLSessionTransport(followingRedirects: false).send(HTTPRequest(
            method: method, url: url, headers: all, body: body.map { Data($0.serialized().utf8) }, timeout: .seconds(60)))
        return (response.status, response.body.isEmpty ? nil : try? JSONValue(parsing: response.body))
    }

    /// A text no other test uses, for titles a test looks for afterwards.
    static func uniqueText(_ prefix: String) -> String { prefix + "-" + String(UInt64.random(in: .min ... .max), radix: 36) }
}
