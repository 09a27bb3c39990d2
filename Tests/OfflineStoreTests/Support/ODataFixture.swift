import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OfflineStore
import Testing

/// The OData fixture servers `scripts/test` starts (`scripts/odata-server`, Docs/ODataFacts.md):
/// one in delta mode at `ODATA_URL`, one in plain mode at `ODATA_PLAIN_URL`, each a service root.
enum ODataFixture {
    /// The fixture's two behaviours.
    enum Mode: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case delta, plain

        /// The environment variable holding the service root of this mode's server.
        var variable: String { self == .delta ? "ODATA_URL" : "ODATA_PLAIN_URL" }
        var testDescription: String { rawValue }
    }

    /// Why the OData tests cannot run.
    struct NotConfigured: Error, CustomStringConvertible {
        var variable: String
        var description: String { "\(variable) is not set: run the suite through scripts/test, which starts the OData fixture" }
    }

    /// The service root of the server in `mode`.
    ///
    /// - Throws: ``NotConfigured`` when its variable is unset; tests never skip silently.
    static func url(_ mode: Mode) throws -> URL {
        guard let text = ProcessInfo.processInfo.environment[mode.variable], !text.isEmpty,
              let url = URL(string: text) else { throw NotConfigured(variable: mode.variable) }
        return url
    }

    /// Basic credentials of the fixture's writer.
    static let writerHeaders = ["Authorization": "Basic " + Data("writer:writer".utf8).base64EncodedString()]

    /// Every entity of `entitySet` whose `Name` starts with `namePrefix`, read as the writer
    /// through every `@odata.nextLink` page, without annotations.
    static func records(of entitySet: String, at root: URL, namePrefix: String) async throws -> [JSONValue] {
        let literal = namePrefix.replacingOccurrences(of: "'", with: "''")
        var components = URLComponents(url: root.appendingPathComponent(entitySet), resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = "$filter=" + "startswith(Name,'\(literal)')"
            .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        var next: URL? = components.url
        var records: [JSONValue] = []
        while let url = next {
            var request = URLRequest(url: url)
            for (name, value) in writerHeaders { request.setValue(value, forHTTPHeaderField: name) }
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            let (data, response) = try await URLSession.shared.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            let page = try JSONValue(parsing: String(decoding: data, as: UTF8.self))
            let rows = try #require(page["value"]?.arrayValue, "listing \(entitySet): HTTP \(status)")
            records += rows
            next = page["@odata.nextLink"]?.stringValue.flatMap(URL.init(string:))
        }
        return records
    }
}
