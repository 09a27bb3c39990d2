import Foundation

extension KintoBackend {
    /// Sends operations: one direct request for a single operation, `POST /batch`
    /// (split at the server's `batch_max_requests`) for several.
    ///
    /// Creates are `PUT` with `If-None-Match: *`; updates `PUT` and deletes `DELETE` with
    /// `If-Match: "<baseVersion>"` (none when the base version is nil: unconditional). The
    /// body is `{"data": …}` without `last_modified`; every request carries `Idempotency-Key`.
    ///
    /// Per operation: 2xx → `applied` (the record without `last_modified`, version =
    /// `last_modified`; a delete gives the tombstone's version); DELETE 404 → `applied(nil, nil)`;
    /// 412 (and 409 of a direct request) → `conflict` with `details.existing`; other 4xx →
    /// `rejected`; 5xx inside a batch → `retry`. A batch with any 409 item may have been rolled
    /// back (Kinto on PostgreSQL), so every operation of that batch becomes `retry`.
    ///
    /// - Throws: ``OfflineStoreError``: `unauthorized` (any 401/403), `offline`, `timeout`,
    ///   `server` (5xx of the whole request or of a direct request, or while backing off),
    ///   `badResponse` (an answer that is not Kinto JSON), `configuration` (invalid names).
    public func push(_ operations: [PushOperation], collection: String) async throws -> [PushOutcome] {
        try checkName(collection)
        try checkBackoff()
        guard !operations.isEmpty else { return [] }
        if operations.count == 1 { return [try await pushOne(operations[0], collection: collection)] }
        let limit = try await capabilities().maxBatchSize
        var outcomes: [PushOutcome] = []
        outcomes.reserveCapacity(operations.count)
        var start = operations.startIndex
        while start < operations.endIndex {
            if start > operations.startIndex { try checkBackoff() }
            let end = min(start + limit, operations.endIndex)
            outcomes += try await pushBatch(Array(operations[start..<end]), collection: collection)
            start = end
        }
        return outcomes
    }

    /// One operation as a Kinto request: method, encoded path, headers and body.
    struct RecordRequest {
        var method: String
        var path: String
        var headers: [(String, String)]
        var body: JSONValue?
    }

    /// Builds the request of one operation.
    func recordRequest(_ operation: PushOperation, collection: String) -> RecordRequest {
        let path = paths.recordPath(collection, id: operation.id)
        var headers = [("Idempotency-Key", operation.idempotencyKey)]
        let precondition = operation.baseVersion.map { ("If-Match", Self.quotedVersion($0)) }
        switch operation.kind {
        case .create:
            headers.append(("If-None-Match", "*"))
            return RecordRequest(method: "PUT", path: path, headers: headers, body: Self.body(operation.data))
        case .update:
            if let precondition { headers.append(precondition) }
            return RecordRequest(method: "PUT", path: path, headers: headers, body: Self.body(operation.data))
        case .delete:
            if let precondition { headers.append(precondition) }
            return RecordRequest(method: "DELETE", path: path, headers: headers, body: nil)
        }
    }

    /// `{"data": …}` without server-owned fields.
    static func body(_ data: JSONValue?) -> JSONValue {
        ["data": KintoRecord.strip(data ?? [:])]
    }

    /// A version as Kinto wants it in `If-Match`: an integer between double quotes.
    static func quotedVersion(_ version: String) -> String {
        let bare = KintoReply.unquote(version)
        return "\"\(bare)\""
    }

    private func pushOne(_ operation: PushOperation, collection: String) async throws -> PushOutcome {
        let request = recordRequest(operation, collection: collection)
        let what = "\(request.method) record \"\(operation.id)\""
        let reply = try await send(request.method, paths.url(request.path), headers: request.headers,
                                   body: request.body, what: what)
        if reply.status >= 500 { throw reply.error(what) }
        return try outcome(of: reply, for: operation, collection: collection)
    }

    private func pushBatch(_ operations: [PushOperation], collection: String,
                           isRetry: Bool = false) async throws -> [PushOutcome] {
        let requests: [JSONValue] = operations.map { operation in
            let request = recordRequest(operation, collection: collection)
            var headers: [String: JSONValue] = [:]
            for (name, value) in request.headers { headers[name] = .string(value) }
            var item: [String: JSONValue] = [
                "method": .string(request.method), "path": .string(request.path), "headers": .object(headers),
            ]
            if let body = request.body { item["body"] = body }
            return .object(item)
        }
        let what = "sending a batch of \(operations.count) operations"
        let reply = try await send("POST", paths.batch, body: ["requests": .array(requests)], what: what)
        guard reply.isSuccess else {
            if reply.status == 400 { state.withLock { $0.capabilities = nil } }
            throw reply.error(what)
        }
        guard let items = reply.json?["responses"]?.arrayValue, items.count == operations.count else {
            throw reply.badResponse(what)
        }
        let replies = try items.map { try KintoReply(batchItem: $0, outerStatus: reply.status) }
        if let rolledBack = replies.first(where: { $0.status == 409 }) {
            let message = "the batch had a 409 conflict (\(rolledBack.message)); its writes may have been rolled back"
            return operations.map { _ in .retry(status: 409, message: message, retryAfter: rolledBack.retryAfter) }
        }
        // A 403 item is that record's refusal (a failed entry, the others stand); a 401 is the user's.
        if let refused = replies.first(where: { $0.status == 401 }) {
            // Items answered 401 were not applied: with refreshed credentials the batch goes once more.
            if !isRetry, try await refreshCredentials() {
                return try await pushBatch(operations, collection: collection, isRetry: true)
            }
            throw refused.error(what)
        }
        return try zip(operations, replies).map { operation, item in
            try outcome(of: item, for: operation, collection: collection)
        }
    }

    /// The outcome of one operation from its answer (whole response or batch item).
    private func outcome(of reply: KintoReply, for operation: PushOperation,
                         collection: String) throws -> PushOutcome {
        let what = "\(operation.kind.rawValue) of record \"\(operation.id)\""
        switch reply.status {
        case 200..<300:
            guard let data = reply.dataObject else { throw reply.badResponse(what) }
            let version = KintoRecord.lastModified(data).map(String.init) ?? reply.etag
            if operation.kind == .delete { return .applied(record: nil, version: version) }
            guard let version else { throw reply.badResponse(what) }
            return .applied(record: KintoRecord.strip(.object(data)), version: version)
        case 401:
            throw reply.error(what)
        case 404 where operation.kind == .delete:
            return .applied(record: nil, version: nil)
        case 409 where reply.json?["details"]?["existing"] == nil:
            // Kinto's 409 without the record is a transient integrity conflict (with
            // Retry-After), not "the record is gone": try again later.
            return .retry(status: 409, message: reply.message, retryAfter: reply.retryAfter)
        case 412, 409:
            guard let existing = reply.json?["details"]?["existing"]?.objectValue else {
                return .conflict(server: nil, version: nil)
            }
            let version = KintoRecord.lastModified(existing).map(String.init)
            if KintoRecord.isTombstone(existing) { return .conflict(server: nil, version: version) }
            return .conflict(server: KintoRecord.strip(.object(existing)), version: version)
        case 400..<500:
            if reply.status == 404, reply.json?["details"]?["resource_name"]?.stringValue != "record" {
                forgetPrepared(collection)
            }
            return .rejected(status: reply.status, body: reply.text)
        case 500...:
            return .retry(status: reply.status, message: reply.message, retryAfter: reply.retryAfter)
        default:
            throw reply.badResponse(what)
        }
    }
}
