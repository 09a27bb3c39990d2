import Foundation

extension ODataBackend {
    /// Sends operations of one entity set: a create `POST`s the set (the key in the body where
    /// the client chooses keys), an update `PATCH`es the entity with `If-Match` of its version,
    /// a delete `DELETE`s it with `If-Match`; creates and updates ask for the entity back
    /// (`Prefer: return=representation`). The operations go in one JSON `$batch` where the
    /// service takes it (found out on the first push of more than one operation), one request
    /// each otherwise; they are independent (the engine guarantees it), so the batch uses no
    /// atomicity groups: each request stands alone, read by its id, and one without an answer
    /// is retried. The set's ``ODataEntitySetSettings/batchSize`` splits a push into several.
    ///
    /// Each answer is read as ``ODataPushAnswerRule`` says, reading the entity back where a
    /// status cannot tell a repeat from a failure or a conflict.
    ///
    /// - Throws: ``OfflineStoreError`` when the first request gets no usable answer: `offline`,
    ///   `timeout`, `unauthorized` (401), `configuration` (no such set; 428: the service
    ///   requires `If-Match` and an object had no version), `badResponse`. Later requests turn
    ///   such failures into `retry`, so the outcomes already known are kept.
    public func push(_ operations: [PushOperation], collection: String) async throws -> [PushOutcome] {
        let mapping = try await mapping(collection)
        let size = min(configuration.maxBatchSize, configuration.entitySets[collection]?.batchSize ?? .max)
        var outcomes: [PushOutcome] = []
        var start = 0
        while start < operations.count {
            let chunk = Array(operations[start..<min(operations.count, start + size)])
            do {
                outcomes += try await pushChunk(chunk, mapping: mapping)
            } catch let error as OfflineStoreError where start > 0 {
                let notSent = PushOutcome.retry(status: error.status, message: "not sent: \(error.message)", retryAfter: error.retryAfter)
                return outcomes + Array(repeating: notSent, count: operations.count - outcomes.count)
            }
            start += chunk.count
        }
        return outcomes
    }

    /// One request's worth: a `$batch` of the chunk, or one request per operation.
    private func pushChunk(_ operations: [PushOperation], mapping: ODataRecordMapping) async throws -> [PushOutcome] {
        var requests: [ODataBatchRequest?] = []
        var outcomes: [PushOutcome?] = []
        for (index, operation) in operations.enumerated() {
            do {
                requests.append(try request(for: operation, mapping: mapping, id: String(index + 1)))
                outcomes.append(nil)
            } catch let error as OfflineStoreError where error.code == .invalidJSON || error.code == .invalidID {
                requests.append(nil)
                outcomes.append(.rejected(status: 0, body: error.message))
            }
        }
        let sendable = requests.compactMap { $0 }
        if sendable.count > 1, service.withLock({ $0.batch }) != false,
           let answers = try await sendBatch(sendable, set: mapping.set.name) {
            for (index, request) in requests.enumerated() {
                guard let request else { continue }
                let operation = operations[index]
                switch answers[request.id] {
                case .answered(let response)?:
                    let reply = ODataReply(response)
                    outcomes[index] = try await outcome(of: operation, reply: reply, mapping: mapping)
                case .rolledBack(let group, _)?:
                    outcomes[index] = .retry(status: nil, message: "atomicity group \(group) of the $batch was rolled back", retryAfter: nil)
                case .unanswered?, nil:
                    outcomes[index] = .retry(status: nil, message: "the $batch listed no answer to this request", retryAfter: nil)
                }
            }
            return outcomes.map { $0 ?? .retry(status: nil, message: "not answered", retryAfter: nil) }
        }
        for (index, request) in requests.enumerated() {
            guard let request else { continue }
            let operation = operations[index]
            do {
                let what = "\(operation.kind.rawValue) of \(mapping.set.name)/\(operation.id)"
                let reply = try await send(request.method, try url(request.url), headers: request.headers.sorted { $0.key < $1.key },
                                           body: request.body.map { Data($0.serialized().utf8) }, what: what)
                outcomes[index] = try await outcome(of: operation, reply: reply, mapping: mapping)
            } catch let error as OfflineStoreError where index > 0 {
                outcomes[index] = .retry(status: error.status, message: error.message, retryAfter: error.retryAfter)
                for later in outcomes.indices where later > index && outcomes[later] == nil {
                    outcomes[later] = .retry(status: nil, message: "not sent: \(error.message)", retryAfter: nil)
                }
                break
            }
        }
        return outcomes.map { $0 ?? .retry(status: nil, message: "not sent", retryAfter: nil) }
    }

    /// The request of one operation, relative to the service root.
    ///
    /// - Throws: `invalidJSON` / `invalidID` for an object or id the set cannot take.
    func request(for operation: PushOperation, mapping: ODataRecordMapping, id: String) throws -> ODataBatchRequest {
        var headers: [String: String] = [:]
        if let base = operation.baseVersion, operation.kind != .create { headers["If-Match"] = base }
        switch operation.kind {
        case .create:
            headers["Prefer"] = "return=representation"
            return ODataBatchRequest(id: id, method: "POST", url: mapping.key.entitySetSegment, headers: headers,
                                     body: try mapping.body(operation.data, id: operation.id, includeKey: !mapping.assignsKeys))
        case .update:
            headers["Prefer"] = "return=representation"
            return ODataBatchRequest(id: id, method: "PATCH", url: try mapping.key.path(operation.id), headers: headers,
                                     body: try mapping.body(operation.data, id: operation.id, includeKey: false))
        case .delete:
            return ODataBatchRequest(id: id, method: "DELETE", url: try mapping.key.path(operation.id), headers: headers)
        }
    }

    /// Sends a JSON `$batch`; nil when the service has no `$batch` (404, 400, 405, 501 to the
    /// batch itself, remembered), so that the caller sends one request each.
    private func sendBatch(_ requests: [ODataBatchRequest], set: String) async throws -> [String: ODataBatchOutcome]? {
        let what = "a $batch of \(requests.count) writes to \(set)"
        let reply = try await send("POST", try url("$batch"), body: try ODataBatch.body(requests), what: what)
        if [400, 404, 405, 501].contains(reply.status) {
            service.withLock { $0.batch = false }
            return nil
        }
        guard reply.isSuccess else { throw reply.error(what) }
        let outcomes: [ODataBatchOutcome]
        do { outcomes = try ODataBatch.outcomes(of: reply.body, for: requests) } catch let error as OfflineStoreError {
            // An answer that is not JSON is named as what it is (an HTML page, plain text).
            guard (try? JSONValue(parsing: reply.body)) != nil else {
                throw OfflineStoreError(.badResponse, "\(what): \(reply.notJSON)", status: reply.status)
            }
            throw OfflineStoreError(.badResponse, "\(what): \(error.message)", status: reply.status)
        }
        service.withLock { $0.batch = true }
        return Dictionary(uniqueKeysWithValues: zip(requests.map(\.id), outcomes))
    }

    /// What one answer means for its operation (``ODataPushAnswerRule``), the entity read back where needed.
    func outcome(of operation: PushOperation, reply: ODataReply, mapping: ODataRecordMapping) async throws -> PushOutcome {
        let what = "\(operation.kind.rawValue) of \(mapping.set.name)/\(operation.id)"
        switch ODataPushAnswerRule.decide(kind: operation.kind, status: reply.status, serverKey: mapping.assignsKeys,
                                          attempt: operation.attempt) {
        case .applied:
            if let members = try? reply.jsonObject(what) {
                let answer = try entity(members, of: reply, mapping: mapping, what: what)
                return .applied(record: answer.record, version: answer.version)
            }
            // No representation: read the entity (a create of a server key by its Location).
            let id = operation.kind == .create && mapping.assignsKeys ? try createdID(reply, mapping: mapping, what: what) : operation.id
            guard let copy = try await read(id, mapping: mapping, what: what) else { return .conflict(server: nil, version: nil) }
            return .applied(record: copy.record, version: copy.version)
        case .gone:
            return .applied(record: nil, version: nil)
        case .deletedOnServer:
            return .conflict(server: nil, version: nil)
        case .rejected:
            return .rejected(status: reply.status, body: reply.summary)
        case .retry:
            return .retry(status: reply.status, message: "\(what): \(reply.summary)", retryAfter: reply.retryAfter)
        case .unauthorized:
            throw reply.error(what)
        case .preconditionRequired:
            throw reply.error(what)
        case .readBack(let kind):
            if kind == .create, mapping.assignsKeys {
                return .retry(status: reply.status, message: "\(what): \(reply.summary)", retryAfter: reply.retryAfter)
            }
            let copy = try await read(operation.id, mapping: mapping, what: what)
            switch (kind, copy) {
            case (.create, let copy?), (.update, let copy?):
                if mapping.holds(copy.record, sent: operation.data) { return .applied(record: copy.record, version: copy.version) }
                return .conflict(server: copy.record, version: copy.version)
            case (.create, nil):
                return RESTFailureRule.decide(status: reply.status, attempt: operation.attempt) == .reject
                    ? .rejected(status: reply.status, body: reply.summary)
                    : .retry(status: reply.status, message: "\(what): \(reply.summary)", retryAfter: reply.retryAfter)
            case (.update, nil):
                return .conflict(server: nil, version: nil)
            case (.delete, nil):
                return .applied(record: nil, version: nil)
            case (.delete, let copy?):
                return .conflict(server: copy.record, version: copy.version)
            }
        }
    }

    /// The key a create's answer without a body names (`OData-EntityId` or `Location`).
    private func createdID(_ reply: ODataReply, mapping: ODataRecordMapping, what: String) throws -> String {
        guard let link = reply.header("OData-EntityId") ?? reply.header("Location") else {
            throw OfflineStoreError(.badResponse, "\(what): the create was answered HTTP \(reply.status) without the entity, "
                + "a Location or an OData-EntityId", status: reply.status)
        }
        return try mapping.key.id(ofEntityID: link)
    }
}
