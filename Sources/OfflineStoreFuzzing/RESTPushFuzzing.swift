import Foundation
import OfflineStore

/// `rest-push`: scripted server answers to creates, updates and deletes (`RESTBackend.push`):
/// records, wrapped records, conflicts, refusals, empty and HTML bodies.
enum RESTPushFuzzing {
    static let target = FuzzTarget(
        name: "rest-push",
        summary: "bytes 1-3: the resource, the operations, resend and attempt; the rest: answers (ScriptedAnswers) → RESTBackend.push: "
            + "typed errors only; one outcome per operation, each a shape its answer allows",
        fuzzerFlags: FuzzTarget.asyncFlags,
        check: check)

    static let object: JSONValue = ["id": "7", "name": "n", "title": "t", "price": 1.5, "customerId": "3", "amount": "2"]

    static func check(_ input: [UInt8]) throws(PropertyViolation) {
        var choices = FuzzInput(input)
        let resource = RESTFuzzResources.resource(choices.byte())
        let shape = choices.byte(), send = choices.byte()
        let kinds: [QueueEntry.Kind] = [.create, .update, .delete]
        let operations: [PushOperation] = (0...Int(shape / 3 % 3)).map { index in
            let kind = kinds[(Int(shape) + index) % 3]
            var operation = PushOperation(id: index == 0 ? "7" : "8", kind: kind, data: kind == .delete ? nil : object,
                                          baseVersion: kind == .create ? nil : "3", idempotencyKey: "key-\(index)")
            operation.isResend = send & 1 == 1
            operation.attempt = Int((send >> 1) % 4) + 1
            return operation
        }
        let transport = ScriptedTransport(ScriptedAnswers.parse(choices.rest))
        let backend = RESTFuzzResources.backend(resource, transport: transport)
        let outcome = runBlocking { () -> Result<[PushOutcome], any Error> in
            do { return .success(try await backend.push(operations, collection: RESTFuzzResources.collection)) } catch {
                return .failure(error)
            }
        }
        for request in transport.sent {
            try require(RESTFuzzResources.isServerOrigin(request.url), "a push sends requests only to the server's origin",
                        request.url.absoluteString)
        }
        switch outcome {
        case .failure(let error):
            guard let error = error as? OfflineStoreError else { throw PropertyViolation("a push throws only OfflineStoreError", "\(error)") }
            try require(RESTFuzzResources.answerCodes.contains(error.code), "a push fails with a code for a bad answer",
                        "\(error.code): \(error.message)")
        case .success(let outcomes):
            try require(outcomes.count == operations.count, "one outcome per operation", "\(outcomes.count) for \(operations.count)")
            for (index, (operation, outcome)) in zip(operations, outcomes).enumerated() {
                try checkOutcome(outcome, of: operation, first: index == 0)
            }
        }
    }

    /// An outcome its answer allows; a later operation's failure becomes a retry with any status.
    static func checkOutcome(_ outcome: PushOutcome, of operation: PushOperation, first: Bool) throws(PropertyViolation) {
        switch outcome {
        case .applied(let record, _):
            if operation.kind == .delete { try require(record == nil, "a delete is applied without a record", shown(record as Any)) }
            if let record { try checkRecord(record) }
        case .createdThenDeleted(let record, _):
            try require(operation.kind == .create, "only a create is answered as created and deleted", "\(operation.kind)")
            try checkRecord(record)
        case .conflict(let server, _):
            if let server { try checkRecord(server) }
        case .rejected(let status, _):
            try require(status == 0 || (400...599).contains(status), "a rejection carries a 4xx or 5xx status (or 0)", "\(status)")
        case .retry(let status, _, let retryAfter):
            if first, let status {
                try require([408, 425, 429].contains(status) || (500...599).contains(status), "a retry follows a 408, 425, 429 or 5xx",
                            "\(status)")
            }
            if let retryAfter { try require(retryAfter >= .zero, "a server's wait is not negative", "\(retryAfter)") }
        }
    }

    /// A record handed to the engine: an object with a non-empty string id.
    static func checkRecord(_ record: JSONValue) throws(PropertyViolation) {
        guard case .string(let id)? = record["id"], !id.isEmpty else {
            throw PropertyViolation("a record in an outcome is an object with a string id", shown(record))
        }
    }
}
