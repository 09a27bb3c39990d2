import Foundation
import OfflineStore

/// A real REST server the REST scenarios run on: the Rails app (customers: `lock_version`,
/// 409) or the DRF app with the server recipe (tasks: ETag and If-Match, 412, in a space of
/// the test's own). Each gives a subject that hides its routes and bodies.
enum RESTServerKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case rails, drf

    var description: String { rawValue }

    /// A subject on this server, for one test.
    func subject() -> RESTSubject {
        switch self {
        case .rails: RESTSubject(kind: self, collection: "customers", field: "name", space: "")
        case .drf: RESTSubject(kind: self, collection: "tasks", field: "title", space: DRFServer.newSpace())
        }
    }
}

/// One test's view of a REST server: its collection, a record's text field, and requests as
/// another client would send them.
struct RESTSubject: Sendable {
    let kind: RESTServerKind
    /// The collection the scenarios edit.
    let collection: String
    /// A text field every record has and the server requires.
    let field: String
    /// DRF's space (empty on Rails).
    let space: String

    /// The status and the field message of a record whose text field is empty.
    var blankRejection: (status: Int, message: String) {
        kind == .rails ? (422, "can't be blank") : (400, "This field may not be blank.")
    }

    /// The resources of the server, `change` applied to the scenario collection's.
    func resources(_ change: (inout RESTResource) -> Void = { _ in }) -> [String: RESTResource] {
        var resources = kind == .rails ? RailsServer.resources : ["tasks": DRFServer.recipeResource(space: space)]
        change(&resources[collection]!)
        return resources
    }

    /// A backend through `transport` (default: the real one, redirects not followed).
    func backend(transport: (any HTTPTransport)? = nil, idempotencyHeader: String? = "Idempotency-Key",
                 _ change: (inout RESTResource) -> Void = { _ in }) throws -> RESTBackend {
        let base = kind == .rails ? try RailsServer.url() : try DRFServer.url()
        return RESTBackend(configuration: .init(baseURL: base, resources: resources(change), idempotencyHeader: idempotencyHeader,
                                                timeout: .seconds(60)),
                           transport: transport ?? URLSessionTransport(followingRedirects: false))
    }

    /// A transport that counts and breaks writes (anything but GET).
    func wire() -> WireFaultTransport {
        WireFaultTransport(base: URLSessionTransport(followingRedirects: false), isWrite: { $0.method != "GET" })
    }

    /// A new record's fields.
    func record(_ text: String) -> JSONValue { .object([field: .string(text)]) }

    /// A unique text.
    func unique(_ prefix: String) -> String { RailsServer.uniqueName(prefix) }

    private func member(_ id: String) -> String {
        kind == .rails ? "/customers/\(id).json" : "/recipe/\(space)/tasks/\(id)/"
    }

    private func send(_ method: String, _ path: String, _ body: JSONValue? = nil) async throws -> (status: Int, json: JSONValue?) {
        if kind == .rails { return try await RailsServer.request(method, path, body) }
        let answer = try await DRFServer.request(method, path, body)
        return (answer.status, answer.json)
    }

    /// Another client sets the text field (no precondition); returns the status.
    @discardableResult
    func otherUpdate(_ id: String, _ text: String) async throws -> Int {
        let fields: JSONValue = .object([field: .string(text)])
        return try await send("PATCH", member(id), kind == .rails ? ["customer": fields] : fields).status
    }

    /// Another client deletes the record; returns the status.
    @discardableResult
    func otherDelete(_ id: String) async throws -> Int { try await send("DELETE", member(id)).status }

    /// Another client creates a record; returns its id.
    func otherCreate(_ text: String) async throws -> String {
        let path = kind == .rails ? "/customers.json" : "/recipe/\(space)/tasks/"
        let answer = try await send("POST", path, kind == .rails ? ["customer": record(text)] : record(text))
        guard answer.status == 201, let id = answer.json?["id"]?.intValue else { throw DRFServer.NotConfigured() }
        return String(id)
    }

    /// The server's live record, nil when missing or deleted.
    func serverRecord(_ id: String) async throws -> JSONValue? {
        let answer = try await send("GET", member(id))
        return answer.status == 200 ? answer.json : nil
    }

    /// How many live records on the server have `text` in the text field.
    func count(_ text: String) async throws -> Int {
        let path = kind == .rails ? "/customers.json?per_page=\(RailsServer.maxPerPage)" : "/recipe/\(space)/tasks/?limit=1000"
        let answer = try await send("GET", path)
        let list = kind == .rails ? answer.json?.arrayValue : answer.json?["results"]?.arrayValue
        return (list ?? []).filter { $0[field] == .string(text) }.count
    }
}
