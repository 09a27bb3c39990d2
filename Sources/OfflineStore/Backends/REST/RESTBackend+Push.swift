import Foundation

extension RESTBackend {
    /// Sends operations one request each, in order: creates `POST` to the collection route
    /// (nested where configured) with the idempotency key header; updates `PATCH`/`PUT` and
    /// deletes `DELETE` to the member route, with `If-Match` or the version field.
    ///
    /// Per operation: 2xx → `applied` with the server's record (a create's answer carries the
    /// server-assigned id, and the engine re-keys the object), or `createdThenDeleted` when a
    /// create's answer (a replay) is a soft-deleted record; an empty 2xx answer to an update
    /// is followed by a GET; DELETE 404 → `applied`; update 404 → `conflict` (deleted on the
    /// server); 409/412 → `conflict` with the server copy (from the body, else a GET), or
    /// `applied` when that copy already holds every sent field (a resent write); 422 and other
    /// 4xx → `rejected` with the body (an HTML page's title); 408/425/429 and 5xx → `retry`, except
    /// the 5xx that say no retry can succeed and a 500 on the third send (`RESTFailureRule`),
    /// which are `rejected`. An object the resource cannot send
    /// (a route field missing, a hook refusing a value) → `rejected` with status 0.
    ///
    /// - Throws: ``OfflineStoreError`` when the first operation gets no usable answer:
    ///   `offline`, `timeout`, `unauthorized`, `badResponse` (a 2xx answer that is not a
    ///   record), `configuration`. Later operations of the call turn such failures into
    ///   `retry`, so the outcomes of the ones already applied are kept.
    public func push(_ operations: [PushOperation], collection: String) async throws -> [PushOutcome] {
        let resource = try resource(collection)
        var outcomes: [PushOutcome] = []
        for (index, operation) in operations.enumerated() {
            do {
                outcomes.append(try await pushOne(operation, resource: resource, collection: collection))
            } catch let error as OfflineStoreError where index > 0 {
                outcomes.append(.retry(status: error.status, message: error.message, retryAfter: error.retryAfter))
                let notSent = PushOutcome.retry(status: nil, message: "not sent: \(error.message)", retryAfter: nil)
                outcomes += Array(repeating: notSent, count: operations.count - outcomes.count)
                return outcomes
            }
        }
        return outcomes
    }

    private func pushOne(_ operation: PushOperation, resource: RESTResource, collection: String) async throws -> PushOutcome {
        let mapping = RESTBodyMapping(resource: resource)
        let what = "\(operation.kind.rawValue) of \(collection)/\(operation.id)"
        let request: (method: String, url: URL, headers: [(String, String)], body: JSONValue?)
        do {
            request = try makeRequest(operation, resource: resource)
        } catch let error as OfflineStoreError where error.code == .invalidOperation || error.code == .invalidJSON {
            return .rejected(status: 0, body: error.message)
        }
        if operation.kind == .create, operation.isResend, let found = try await lookUpCreate(operation, resource: resource, what: what) {
            return found
        }
        let reply = try await send(request.method, request.url, headers: request.headers, body: request.body, what: what)
        switch reply.status {
        case 200..<300:
            if operation.kind == .delete { return .applied(record: nil, version: nil) }
            if reply.json == nil, reply.jsonError == nil, operation.kind == .update {
                return try await read(operation.id, resource: resource, what: what).map { .applied(record: $0.record, version: $0.version) }
                    ?? .conflict(server: nil, version: nil)
            }
            let answer = try record(in: reply.requireJSON(what), resource: resource, what: what)
            let local = try mapping.localRecord(answer, what: what)
            let version = version(of: answer, reply: reply, resource: resource)
            if operation.kind == .create, mapping.isTombstone(answer) {
                return .createdThenDeleted(record: local.object, version: version)  // a replay of a since-deleted record
            }
            return .applied(record: local.object, version: version)
        case 401:
            throw reply.error(what)
        case 403:
            // The user may not write this record: kept as a forbidden failed entry, the others go on.
            return .rejected(status: 403, body: reply.summary)
        case 404 where operation.kind == .delete:
            return .applied(record: nil, version: nil)
        case 404 where operation.kind == .update:
            return .conflict(server: nil, version: nil)
        case 409, 412:
            return try await conflict(reply, of: operation, resource: resource, what: what)
        case 400...:
            switch RESTFailureRule.decide(status: reply.status, attempt: operation.attempt) {
            case .reject: return .rejected(status: reply.status, body: reply.summary)
            case .retry: return .retry(status: reply.status, message: "\(what): \(reply.statusLine)", retryAfter: reply.retryAfter)
            }
        default:
            throw reply.badResponse(what)
        }
    }

    /// The method, URL, headers and body of one operation.
    func makeRequest(_ operation: PushOperation, resource: RESTResource) throws
        -> (method: String, url: URL, headers: [(String, String)], body: JSONValue?) {
        let mapping = RESTBodyMapping(resource: resource)
        let routes = RESTRoutes(resource: resource)
        var headers: [(String, String)] = []
        let base = operation.baseVersion
        switch operation.kind {
        case .create:
            let fields = try mapping.remoteFields(operation.data ?? [:], includeID: resource.ids == .client)
            if let name = configuration.idempotencyHeader { headers.append((name, operation.idempotencyKey)) }
            let path = try routes.collectionPath(for: .create, fields: fields)
            return ("POST", try url(path), headers, mapping.body(fields))
        case .update:
            var fields = try mapping.remoteFields(operation.data ?? [:], includeID: false)
            switch resource.concurrency {
            case .ifMatch: if let base { headers.append(("If-Match", "\"\(base)\"")) }
            case .versionField:
                if let base, let field = resource.versionField { fields[field] = Int64(base).map(JSONValue.int) ?? .string(base) }
            case .none: break
            }
            let path = try routes.memberPath(for: .update, id: operation.id, fields: fields)
            return (resource.updateMethod.rawValue, try url(path), headers, mapping.body(fields))
        case .delete:
            var query: [URLQueryItem] = []
            switch resource.concurrency {
            case .ifMatch: if let base { headers.append(("If-Match", "\"\(base)\"")) }
            case .versionField:
                if let base, let field = resource.versionField { query.append(URLQueryItem(name: field, value: base)) }
            case .none: break
            }
            let path = try routes.flatMemberPath(id: operation.id)
            return ("DELETE", try url(path, query: query), headers, nil)
        }
    }

    /// The record of an answer: the object itself, or the one under the resource's wrap key.
    func record(in json: JSONValue, resource: RESTResource, what: String) throws -> JSONValue {
        if let key = resource.wrapKey, json["id"] == nil, let inner = json[key], inner.objectValue != nil { return inner }
        guard json.objectValue != nil else {
            throw OfflineStoreError(.badResponse, "\(what): expected a record, got \(json.typeName)", body: json.serialized())
        }
        return json
    }

    /// A record's version: the ETag first under `If-Match` concurrency, else the version field.
    func version(of record: JSONValue, reply: RESTReply?, resource: RESTResource) -> String? {
        let field = RESTBodyMapping(resource: resource).version(of: record)
        if case .ifMatch = resource.concurrency { return reply?.etag ?? field }
        return field ?? reply?.etag
    }

    /// GETs the member; nil when the server has no such (live) record.
    package func read(_ id: String, resource: RESTResource, what: String) async throws -> (record: JSONValue?, version: String?)? {
        let path = try RESTRoutes(resource: resource).flatMemberPath(id: id)
        let reply = try await send("GET", try url(path), what: "\(what): reading the server's copy")
        if reply.status == 404 || reply.status == 410 { return nil }
        guard reply.isSuccess else { throw reply.error("\(what): reading the server's copy") }
        let answer = try record(in: reply.requireJSON(what), resource: resource, what: what)
        let mapping = RESTBodyMapping(resource: resource)
        if mapping.isTombstone(answer) { return nil }
        return (try mapping.localRecord(answer, what: what).object, version(of: answer, reply: reply, resource: resource))
    }

    /// A 409/412: the server copy from the body when it is a record, else read with a GET.
    private func conflict(_ reply: RESTReply, of operation: PushOperation, resource: RESTResource,
                          what: String) async throws -> PushOutcome {
        let mapping = RESTBodyMapping(resource: resource)
        var server: (record: JSONValue?, version: String?)?
        if let json = reply.json, let answer = try? record(in: json, resource: resource, what: what), answer["id"] != nil {
            server = mapping.isTombstone(answer) ? (nil, mapping.version(of: answer))
                : (try mapping.localRecord(answer, what: what).object, version(of: answer, reply: reply, resource: resource))
        } else {
            server = try await read(operation.id, resource: resource, what: what)
        }
        guard let server, let copy = server.record else { return .conflict(server: nil, version: server?.version) }
        // A resent write whose first answer was lost: the server already holds what we sent.
        if operation.kind == .update, let sent = operation.data?.objectValue,
           sent.allSatisfy({ key, value in key == "id" || mapping.serverOwned.contains(mapping.remoteName(key)) || copy[key] == value }) {
            return .applied(record: copy, version: server.version)
        }
        return .conflict(server: copy, version: server.version)
    }

    /// A resent create whose first answer was lost: the record it made, found by its
    /// idempotency key, as `applied`; nil when the server has none (or the resource cannot look).
    private func lookUpCreate(_ operation: PushOperation, resource: RESTResource, what: String) async throws -> PushOutcome? {
        guard let parameter = resource.createLookupParameter else { return nil }
        let lookup = try url(RESTRoutes(resource: resource).listPath,
                             query: [URLQueryItem(name: parameter, value: operation.idempotencyKey)])
        let reply = try await send("GET", lookup, what: "\(what): looking for the record of a lost answer")
        guard reply.isSuccess else { return nil }
        let json = try reply.requireJSON(what)
        guard let found = (resource.pull.listKey.map { json.value(atPath: $0) } ?? json)?.arrayValue?.first else { return nil }
        let mapping = RESTBodyMapping(resource: resource)
        let local = try mapping.localRecord(found, what: what)
        let version = version(of: found, reply: nil, resource: resource)
        return mapping.isTombstone(found) ? .createdThenDeleted(record: local.object, version: version)
            : .applied(record: local.object, version: version)
    }
}
