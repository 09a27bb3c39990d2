import Foundation

extension RESTBackend: BlobBackend {
    /// The local names of every blob route's server fields (URL, SHA-256, metadata).
    public var blobMetadataFields: [String] {
        var names = Set<String>()
        for resource in configuration.resources.values {
            let mapping = RESTBodyMapping(resource: resource)
            for route in resource.blobRoutes.values { names.formUnion(route.serverFields.map(mapping.localName)) }
        }
        return names.sorted()
    }

    /// Each blob field has its own route: no limit.
    public var maxBlobFieldsPerObject: Int? { nil }

    /// Sends the file as `multipart/form-data` (the route's part, filename = the field's name)
    /// to the field's ``RESTBlobRoute``, streaming the body from a temporary file, with the
    /// known version (`If-Match`, or the version field in the query); the answer (or a GET
    /// when it is empty) must name the reference's SHA-256 in the route's `sha256Field`.
    ///
    /// 2xx → stored with the record; 409/412 → conflict, unless the server's record already
    /// names these bytes (a resent upload whose answer was lost: stored); other 4xx (e.g. 413,
    /// 422) → rejected.
    ///
    /// - Throws: ``OfflineStoreError``: `configuration` (no route for the field), `offline`,
    ///   `timeout`, `server` (5xx), `unauthorized` (401/403), `badResponse` (an answer that is
    ///   not a record, or names other bytes).
    public func uploadBlob(_ upload: BlobUpload) async throws -> BlobUploadOutcome {
        let resource = try resource(upload.collection)
        let route = try blobRoute(resource, collection: upload.collection, field: upload.field)
        let what = "uploading the blob \(upload.field) of \(upload.collection)/\(upload.id)"
        var headers: [(String, String)] = [("Accept", "application/json")]
        var query: [URLQueryItem] = []
        switch resource.concurrency {
        case .ifMatch: if let version = upload.baseVersion { headers.append(("If-Match", "\"\(version)\"")) }
        case .versionField:
            if let version = upload.baseVersion, let field = resource.versionField { query.append(URLQueryItem(name: field, value: version)) }
        case .none: break
        }
        let target = try url(try RESTRoutes.fill(route.path, ["id": .string(upload.id)]), query: query)
        let body = try MultipartFile.write(field: route.partName, filename: upload.field,
                                           mimetype: upload.reference.mimetype, contents: upload.file)
        defer { try? FileManager.default.removeItem(at: body.file) }
        headers.append(("Content-Type", body.contentType))
        headers += configuration.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let request = HTTPRequest(method: route.method, url: target, headers: headers, timeout: configuration.timeout)
        let reply = RESTReply(try await transport.upload(request, fromFile: body.file, while: what))
        switch reply.status {
        case 200..<300:
            return .stored(try await storedRecord(reply, upload: upload, route: route, resource: resource, what: what))
        case 401, 403: throw reply.error(what)
        case 409, 412:
            // A resent upload whose first answer was lost: the server already names our bytes.
            guard let current = try await read(upload.id, resource: resource, what: what),
                  let record = current.record, let version = current.version,
                  record[RESTBodyMapping(resource: resource).localName(route.sha256Field)]?.stringValue == upload.reference.sha256
            else { return .conflict }
            return .stored(RemoteChange(id: upload.id, record: record, version: version))
        case 400..<500: return .rejected(status: reply.status, body: reply.text)
        default: throw reply.error(what)
        }
    }

    /// Downloads the URL in the record's `urlField` (relative to the base URL) when its
    /// `sha256Field` is the reference's SHA-256; false when the record names no stored blob or
    /// other bytes, or the server answers 404. The configured headers (credentials) are sent
    /// only when the URL is on the base URL's origin.
    ///
    /// - Throws: ``OfflineStoreError``: `configuration`, `offline`, `timeout`, `server`, `unauthorized`.
    public func downloadBlob(collection: String, id: String, field: String, reference: BlobReference,
                             record: JSONValue, to file: URL) async throws -> Bool {
        let resource = try resource(collection)
        let route = try blobRoute(resource, collection: collection, field: field)
        let mapping = RESTBodyMapping(resource: resource)
        guard record[mapping.localName(route.sha256Field)]?.stringValue == reference.sha256,
              let text = record[mapping.localName(route.urlField)]?.stringValue,
              let location = URL(string: text, relativeTo: configuration.baseURL)?.absoluteURL,
              let scheme = location.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return false }
        let headers = location.hasSameOrigin(as: configuration.baseURL)
            ? configuration.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } : []
        let what = "downloading the blob \(field) of \(collection)/\(id)"
        let request = HTTPRequest(method: "GET", url: location, headers: headers, timeout: configuration.timeout)
        let reply = RESTReply(try await transport.download(request, to: file, while: what))
        if reply.status == 404 { return false }
        guard reply.isSuccess else { throw reply.error(what) }
        return true
    }

    /// The route of a blob field.
    private func blobRoute(_ resource: RESTResource, collection: String, field: String) throws -> RESTBlobRoute {
        guard let route = resource.blobRoutes[field] else {
            throw OfflineStoreError(.configuration, "the REST resource of \"\(collection)\" has no blob route for the field '\(field)'")
        }
        return route
    }

    /// The record after an upload, from the answer (a GET when it is empty), which must name the uploaded bytes.
    private func storedRecord(_ reply: RESTReply, upload: BlobUpload, route: RESTBlobRoute, resource: RESTResource,
                              what: String) async throws -> RemoteChange? {
        let mapping = RESTBodyMapping(resource: resource)
        let stored: (record: JSONValue?, version: String?)
        if reply.json == nil, reply.jsonError == nil {
            guard let read = try await read(upload.id, resource: resource, what: what) else { return nil }
            stored = read
        } else {
            let answer = try record(in: reply.requireJSON(what), resource: resource, what: what)
            stored = (try mapping.localRecord(answer, what: what).object, version(of: answer, reply: reply, resource: resource))
        }
        guard stored.record?[mapping.localName(route.sha256Field)]?.stringValue == upload.reference.sha256 else {
            throw OfflineStoreError(.badResponse, "\(what): the server's record does not name the uploaded bytes in '\(route.sha256Field)'",
                                    status: reply.status, body: String(reply.text.prefix(2000)))
        }
        guard let version = stored.version else { return nil }
        return RemoteChange(id: upload.id, record: stored.record, version: version)
    }
}
