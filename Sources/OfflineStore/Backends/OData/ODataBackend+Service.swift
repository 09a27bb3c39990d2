import Foundation

extension ODataBackend {
    /// The service's `$metadata`, read once and kept.
    ///
    /// - Throws: `offline`, `timeout`, `unauthorized`, `server` for the request;
    ///   `badResponse` for a document that is not CSDL.
    func metadata() async throws -> ODataMetadata {
        if let known = service.withLock({ $0.metadata }) { return known }
        let what = "reading the service's $metadata"
        let reply = try await send("GET", try url("$metadata"), accept: "application/xml", what: what)
        guard reply.isSuccess else { throw reply.error(what) }
        let metadata = try ODataMetadata.read(reply.body)
        service.withLock { $0.metadata = metadata }
        return metadata
    }

    /// The mapping of an entity set, `$metadata` read if it was not.
    ///
    /// - Throws: ``OfflineStoreError/Code/configuration`` naming the sets there are, or why
    ///   the key cannot be synced; the errors of ``metadata()``.
    func mapping(_ collection: String) async throws -> ODataRecordMapping {
        try ODataRecordMapping(set: try await metadata().entitySet(collection))
    }

    /// The mapping of an entity set if `$metadata` was read and names it.
    func cachedMapping(_ collection: String) -> ODataRecordMapping? {
        guard let set = service.withLock({ $0.metadata?.entitySets[collection] }) else { return nil }
        return try? ODataRecordMapping(set: set)
    }

    /// The URL of a path relative to the service root, which may carry a query.
    func url(_ relative: String) throws -> URL {
        var root = configuration.serviceRoot.absoluteString
        while root.hasSuffix("/") { root.removeLast() }
        guard let url = URL(string: root + "/" + relative) else {
            throw OfflineStoreError(.configuration, "\"\(root)/\(relative)\" is not a URL")
        }
        return url
    }

    /// A link the service handed out (`@odata.nextLink`, `@odata.deltaLink`), resolved
    /// against the service root; only one on the service's origin is followed, since every
    /// request carries the configuration's credentials.
    ///
    /// - Throws: ``OfflineStoreError/Code/badResponse`` for a link that is not a URL or
    ///   points at another server.
    func followed(_ link: String, what: String) throws -> URL {
        guard RESTBackend.isURIReference(link), let url = URL(string: link, relativeTo: configuration.serviceRoot)?.absoluteURL else {
            throw OfflineStoreError(.badResponse, "\(what): the link \"\(link)\" is not a URL")
        }
        guard url.hasSameOrigin(as: configuration.serviceRoot) else {
            throw OfflineStoreError(.badResponse, "\(what): the link \"\(link)\" points at another server than "
                + "\(configuration.serviceRoot.absoluteString), which the credentials are for")
        }
        return url
    }

    /// Sends one request with the configured headers; returns the answer whatever its status.
    ///
    /// - Throws: `offline` (no connection), `timeout` (no answer; the server may have applied it).
    func send(_ method: String, _ url: URL, headers extra: [(String, String)] = [], body: Data? = nil,
              accept: String = "application/json", what: String) async throws -> ODataReply {
        var headers: [(String, String)] = [("Accept", accept), ("OData-MaxVersion", "4.01")]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        headers += configuration.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        headers += extra
        let request = HTTPRequest(method: method, url: url, headers: headers, body: body, timeout: configuration.timeout)
        return ODataReply(try await transport.send(request, while: what))
    }

    /// Reads one entity: its object and ETag; nil for 404.
    ///
    /// - Throws: the request's errors; `badResponse` for an answer that is not an entity.
    func read(_ id: String, mapping: ODataRecordMapping, what: String) async throws -> (record: JSONValue, version: String)? {
        let reply = try await send("GET", try url(try mapping.key.path(id)), what: "\(what): reading the server's copy")
        if reply.status == 404 || reply.status == 410 { return nil }
        guard reply.isSuccess else { throw reply.error("\(what): reading the server's copy") }
        return try entity(in: reply, mapping: mapping, what: what)
    }

    /// The object and ETag of an answer whose body is one entity.
    ///
    /// - Throws: `badResponse` for a body that is not an entity with its key, or an answer without an ETag.
    func entity(in reply: ODataReply, mapping: ODataRecordMapping, what: String) throws -> (record: JSONValue, version: String) {
        try entity(try reply.jsonObject(what), of: reply, mapping: mapping, what: what)
    }

    /// The object and ETag of an entity's members, already read from `reply`'s body.
    ///
    /// - Throws: as ``entity(in:mapping:what:)``.
    func entity(_ members: [String: JSONValue], of reply: ODataReply, mapping: ODataRecordMapping,
                what: String) throws -> (record: JSONValue, version: String) {
        let (_, object) = try mapping.object(ODataPage.properties(members), what: what)
        let annotation = (members["@odata.etag"] ?? members["@etag"])?.stringValue
        guard let etag = try ODataETag.of(header: reply.header("ETag"), annotation: annotation) else {
            throw OfflineStoreError(.badResponse, "\(what): the service sent no ETag for the entity (no ETag header, no "
                + "@odata.etag); the store needs one to send updates with If-Match", status: reply.status)
        }
        return (object, etag.text)
    }
}
