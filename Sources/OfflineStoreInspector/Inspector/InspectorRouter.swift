import OfflineStore

/// Answers the page's requests: the static page and a JSON API over the store.
///
/// Before any route runs it checks that the request was addressed to this inspector's
/// loopback address (the `Host` header: a page on another site that rebinds a DNS name to
/// 127.0.0.1 is refused), and for a write that the inspector allows writes, the request
/// carries the page's own header and JSON (which a cross-site form cannot send), and its
/// `Origin`, when present, is the inspector's. Routes are matched exactly: no part of a
/// path or parameter ever names a file, and every action is a call of the store's API.
public struct InspectorRouter: Sendable {
    /// The header every write must carry (the page's script sets it).
    public static let writeHeader = "x-offline-store-inspector"

    let context: InspectorContext
    /// The `Host` values this inspector answers to.
    public let allowedHosts: Set<String>
    private let port: Int

    init(context: InspectorContext, port: Int) {
        self.context = context
        self.port = port
        allowedHosts = ["127.0.0.1:\(port)", "localhost:\(port)"]
    }

    private typealias Route = @Sendable (InspectorRouter, InspectorRequest) throws -> InspectorResponse

    private static let reads: [String: Route] = [
        "/": { _, _ in InspectorPage.response(.html) },
        "/index.html": { _, _ in InspectorPage.response(.html) },
        "/app.css": { _, _ in InspectorPage.response(.css) },
        "/app.js": { _, _ in InspectorPage.response(.script) },
        "/api/overview": { router, _ in try router.overview() },
        "/api/objects": { router, request in try router.objects(request) },
        "/api/object": { router, request in try router.object(request) },
        "/api/queue": { router, _ in try router.queue() },
        "/api/conflicts": { router, request in try router.conflicts(request) },
        "/api/conflict": { router, request in try router.conflict(request) },
        "/api/failed": { router, request in try router.failed(request) },
        "/api/live": { router, _ in router.live() },
    ]

    private static let writes: [String: @Sendable (InspectorRouter, JSONValue) throws -> InspectorResponse] = [
        "/api/resolve": { router, body in try router.resolve(body) },
        "/api/failed-action": { router, body in try router.failedAction(body) },
        "/api/run": { router, body in try router.run(body) },
    ]

    /// Answers one request; errors become `{"error": message}` with their status.
    public func handle(_ request: InspectorRequest) -> InspectorResponse {
        do {
            guard let host = request.headers["host"], allowedHosts.contains(host.lowercased()) else {
                throw InspectorError(421, "this inspector answers only at http://127.0.0.1:\(port)/")
            }
            switch request.method {
            case "GET", "HEAD":
                if let route = Self.reads[request.path] { return try route(self, request) }
                if Self.writes[request.path] != nil { throw InspectorError(405, "\(request.path) takes POST") }
            case "POST":
                if let route = Self.writes[request.path] { return try route(self, try writeBody(request, host: host)) }
                if Self.reads[request.path] != nil { throw InspectorError(405, "\(request.path) takes GET") }
            default:
                throw InspectorError(405, "the inspector answers GET and POST only")
            }
            throw InspectorError(404, "no such page: \(request.path)")
        } catch {
            let failure = InspectorError.describe(error)
            return .error(failure.status, failure.message)
        }
    }

    /// The JSON object a write carries, once the write is allowed.
    private func writeBody(_ request: InspectorRequest, host: String) throws -> JSONValue {
        guard context.allowWrites else {
            throw InspectorError(403, "the inspector is read-only: restart it with `offline-store inspect --allow-writes`")
        }
        guard request.headers[Self.writeHeader] == "1" else {
            throw InspectorError(403, "a write must come from the inspector's page (header \(Self.writeHeader): 1)")
        }
        if let origin = request.headers["origin"], origin.lowercased() != "http://\(host.lowercased())" {
            throw InspectorError(403, "a write from \(origin) is refused; only the inspector's own page may write")
        }
        guard request.headers["content-type"]?.lowercased().hasPrefix("application/json") == true else {
            throw InspectorError(415, "a write must send Content-Type: application/json")
        }
        let body: JSONValue
        do { body = try JSONValue(parsing: request.body) } catch {
            throw InspectorError(400, "the request body is not valid JSON: \(error)")
        }
        guard body.objectValue != nil else {
            throw InspectorError(400, "the request body must be a JSON object, got \(body.typeName)")
        }
        return body
    }

    /// `/api/live`: the change generation and the inspector's run, polled by the page.
    func live() -> InspectorResponse {
        .json(["generation": .int(Int64(context.watcher.generation)),
               "activity": InspectorShape.activity(context.activity.snapshot, storeSyncing: context.store.isSyncing)])
    }
}

/// Reading parameters and body fields, with a clear message for each kind of bad input.
extension InspectorRouter {
    func parameter(_ request: InspectorRequest, _ name: String) throws -> String {
        guard let value = request.query[name], !value.isEmpty else {
            throw InspectorError(400, "missing query parameter '\(name)'")
        }
        return value
    }

    func integer(_ request: InspectorRequest, _ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text = request.query[name], !text.isEmpty else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw InspectorError(400, "'\(name)' must be a whole number in \(range.lowerBound)…\(range.upperBound), got '\(text)'")
        }
        return number
    }

    func string(_ body: JSONValue, _ name: String) throws -> String {
        guard let value = body[name]?.stringValue, !value.isEmpty else {
            throw InspectorError(400, "the request needs \"\(name)\", a non-empty string")
        }
        return value
    }

    /// A registered collection's handle (404 naming it otherwise).
    func collection(_ name: String) throws -> ObjectCollection {
        _ = try context.store.descriptor(of: name)
        return context.store.collection(name)
    }
}
