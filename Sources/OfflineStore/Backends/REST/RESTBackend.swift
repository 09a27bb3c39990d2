import Foundation

/// The ``Backend`` for a Rails-style REST API, configured per collection with a
/// ``RESTResource``: route templates (nested where configured), wrapped or bare JSON,
/// key mapping, PUT or PATCH, ETag or `lock_version` concurrency, server-assigned ids,
/// an `updated_since` pull with soft-delete tombstones.
///
/// ```swift
/// var orders = RESTResource(path: "/orders", wrapKey: "order")
/// orders.nested = .init(path: "/customers/{customer_id}/orders", for: [.create])
/// orders.associations = ["customerId": "customers"]
/// let backend = RESTBackend(configuration: .init(
///     baseURL: URL(string: "http://127.0.0.1:3000")!,
///     resources: ["customers": RESTResource(path: "/customers", wrapKey: "customer"), "orders": orders]))
/// ```
public final class RESTBackend: Backend, Sendable {
    /// The settings this backend was created with.
    public let configuration: Configuration
    let transport: any HTTPTransport

    /// Creates a backend; nothing is sent until the first call.
    ///
    /// The default transport does not follow redirects: a REST route that the server
    /// redirects (Django's missing trailing slash) is a `configuration` error naming where it
    /// pointed, never a write silently turned into a GET of another URL.
    public init(configuration: Configuration, transport: any HTTPTransport = URLSessionTransport(followingRedirects: false)) {
        self.configuration = configuration
        self.transport = transport
    }

    /// Checks an id against the collection's ``RESTResource/idPattern``, when it has one.
    ///
    /// Ids of resources whose ids the server assigns are temporary and never sent, so
    /// any id passes there.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidID`` naming the pattern;
    ///   ``OfflineStoreError/Code/configuration`` when the pattern is not a valid expression.
    public func validate(id: String, in collection: String) throws {
        guard let resource = configuration.resources[collection], case .client = resource.ids,
              let pattern = resource.idPattern else { return }
        try RESTIDPattern.check(id, against: pattern, collection: collection)
    }

    /// One request per operation; ``Configuration/maxBatchSize`` operations per push call.
    public func capabilities() async throws -> BackendCapabilities {
        BackendCapabilities(maxBatchSize: configuration.maxBatchSize)
    }

    /// Checks that the collection has a resource; REST collections exist on the server already.
    ///
    /// - Throws: ``OfflineStoreError/Code/configuration`` for a collection without a resource.
    public func prepare(collection: String) async throws {
        _ = try resource(collection)
    }

    /// What the collection's resource says: its associations; server-assigned ids
    /// (``RESTResource/IDAssignment/server``); deletions found by a sweep
    /// (``RESTResource/Deletions/sweep``); a refresh before resending a create whose answer
    /// was lost, for a resource whose ids the server assigns and that cannot have a create
    /// replayed (``RESTResource/LostCreates/refresh``, or no idempotency key sent at all,
    /// unless a ``RESTResource/createLookupParameter`` finds the record); and the local names
    /// of the fields it never sends (``RESTResource/neverSent``, blob routes' server fields),
    /// which the server writes, so that a write of ours coming back is compared without them.
    /// A collection without a resource has the defaults.
    public func traits(of collection: String) -> BackendTraits {
        guard let resource = configuration.resources[collection] else { return BackendTraits() }
        let mapping = RESTBodyMapping(resource: resource)
        var traits = BackendTraits(associations: resource.associations, sweepsDeletions: resource.pull.deletions == .sweep,
                                   serverManagedFields: Set(mapping.serverOwned.filter { $0 != "id" }.map(mapping.localName)))
        if case .server = resource.ids {
            traits.assignsIDs = true
            traits.refreshesBeforeResendingCreates = resource.createLookupParameter == nil && resource.pull.isEnabled
                && (resource.lostCreates == .refresh || configuration.idempotencyHeader == nil)
        }
        return traits
    }

    /// Asks the API root: any answer but 401/403 or 5xx means reachable.
    ///
    /// - Throws: `offline`, `timeout`, `unauthorized`, `server`.
    public func ping() async throws {
        let reply = try await send("GET", configuration.baseURL, what: "pinging the server")
        if reply.status == 401 || reply.status == 403 || reply.status >= 500 { throw reply.error("pinging the server") }
    }

    /// The resource of a collection.
    package func resource(_ collection: String) throws -> RESTResource {
        guard let resource = configuration.resources[collection] else {
            throw OfflineStoreError(.configuration, "collection \"\(collection)\" has no REST resource configured")
        }
        return resource
    }

    /// The full URL of a path (which may carry a query) under the base URL.
    func url(_ path: String, query: [URLQueryItem] = []) throws -> URL {
        var base = configuration.baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard var components = URLComponents(string: base + path) else {
            throw OfflineStoreError(.configuration, "\"\(base + path)\" is not a URL")
        }
        if !query.isEmpty { components.queryItems = (components.queryItems ?? []) + query }
        // `+` in a query value would read as a space on the server.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        guard let url = components.url else { throw OfflineStoreError(.configuration, "\"\(base + path)\" is not a URL") }
        return url
    }

    /// Sends one request with the configured headers and returns the answer, whatever its status.
    ///
    /// - Throws: `offline` (no connection), `timeout` (no answer; the server may have applied it).
    func send(_ method: String, _ url: URL, headers extra: [(String, String)] = [], body: JSONValue? = nil,
              what: String) async throws -> RESTReply {
        var headers: [(String, String)] = [("Accept", "application/json")]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        headers += configuration.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        headers += extra
        let request = HTTPRequest(method: method, url: url, headers: headers,
                                  body: body.map { Data($0.serialized().utf8) }, timeout: configuration.timeout)
        let reply = RESTReply(try await transport.send(request, while: what))
        if let redirect = reply.redirectError(method, url, what: what) { throw redirect }
        return reply
    }
}

extension RESTBackend: CustomStringConvertible {
    /// The backend, its server and collections (header values are not shown).
    public var description: String {
        "RESTBackend(\(configuration.baseURL.absoluteString), collections: \(configuration.resources.keys.sorted()))"
    }
}
