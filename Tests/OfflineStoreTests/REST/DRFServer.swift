import Foundation
import OfflineStore

/// The real Django REST Framework app the REST tests run against beside Rails
/// (Fixtures/drf-server, started by `scripts/drf-server` from `scripts/test`): `/plain/<space>/tasks/`
/// with DRF's defaults, `/recipe/<space>/tasks/` with the server recipe. Every test uses a
/// space of its own, so counts and full pulls see only its records.
enum DRFServer {
    /// Why the DRF tests cannot run.
    struct NotConfigured: Error, CustomStringConvertible {
        var description: String { "DRF_URL is not set: run the suite through scripts/test, which starts the DRF app" }
    }

    /// The two routes of the app.
    enum Variant: String, Sendable { case plain, recipe }

    /// The base URL from `DRF_URL`.
    ///
    /// - Throws: ``NotConfigured`` when it is unset; tests never skip silently.
    static func url() throws -> URL {
        guard let text = ProcessInfo.processInfo.environment["DRF_URL"], !text.isEmpty, let url = URL(string: text) else {
            throw NotConfigured()
        }
        return url
    }

    /// A space no other test uses.
    static func newSpace() -> String { "t" + String(UInt64.random(in: .min ... .max), radix: 36) }

    /// The resources file in Fixtures/ of a variant (`drf-resources.json`, `drf-plain-resources.json`).
    static func fileURL(_ variant: Variant) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(variant == .recipe ? "Fixtures/drf-resources.json"
                                                                                  : "Fixtures/drf-plain-resources.json")
    }

    /// The fixture file's text with its space (`demo`) replaced by `space`.
    static func fileText(_ variant: Variant, space: String) throws -> String {
        try String(contentsOf: fileURL(variant), encoding: .utf8).replacingOccurrences(of: "/demo/", with: "/\(space)/")
    }

    /// The resources of a variant's fixture file, in `space`.
    static func resources(_ variant: Variant, space: String) throws -> [String: RESTResource] {
        try RESTResourceFile(json: try JSONValue(parsing: Data(try fileText(variant, space: space).utf8))).resources
    }

    /// The recipe's resources in code: what `Fixtures/drf-resources.json` says.
    static func recipeResource(space: String) -> RESTResource {
        var tasks = RESTResource(path: "/recipe/\(space)/tasks/")
        tasks.formatSuffix = nil
        tasks.concurrency = .ifMatch
        tasks.versionField = "version"
        tasks.pull.listKey = "results"
        tasks.pull.countField = "count"
        tasks.pull.paging = .cursor(sizeParameter: "limit", size: 100)
        return tasks
    }

    /// A backend on the app with `resources`.
    static func backend(_ resources: [String: RESTResource], idempotencyHeader: String? = "Idempotency-Key",
                        transport: any HTTPTransport = URLSessionTransport(followingRedirects: false)) throws -> RESTBackend {
        RESTBackend(configuration: .init(baseURL: try url(), resources: resources, idempotencyHeader: idempotencyHeader,
                                         timeout: .seconds(60)), transport: transport)
    }

    /// Sends a request as another client would; returns the status, headers and the JSON body (nil when empty).
    @discardableResult
    static func request(_ method: String, _ path: String, _ body: JSONValue? = nil,
                        headers: [(String, String)] = []) async throws -> (status: Int, json: JSONValue?, headers: [String: String]) {
        var all = headers + [("Accept", "application/json")]
        if body != nil { all.append(("Content-Type", "application/json")) }
        let request = HTTPRequest(method: method, url: URL(string: try url().absoluteString + path)!, headers: all,
                                  body: body.map { Data($0.serialized().utf8) }, timeout: .seconds(60))
        let response = try await URLSessionTransport(followingRedirects: false).send(request)
        let json = response.body.isEmpty ? nil : try? JSONValue(parsing: response.body)
        return (response.status, json, response.headers)
    }

    /// Makes `count` tasks `seed-1`… in `space` of a variant, in one request.
    static func seed(_ variant: Variant, space: String, count: Int) async throws {
        let answer = try await request("POST", "/seed/\(variant.rawValue)/\(space)/", ["count": .int(Int64(count))])
        guard answer.status == 201 else { throw NotConfigured() }
    }
}
