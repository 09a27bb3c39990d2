import Foundation

/// One request of a JSON `$batch` (OData 4.01 JSON Format, 19).
struct ODataBatchRequest: Sendable, Equatable {
    /// The request's id in the batch; unique, and not the name of an atomicity group.
    var id: String
    /// `GET`, `POST`, `PATCH`, `PUT` or `DELETE`.
    var method: String
    /// The URL, relative to the service root (`Tasks`, `Tasks(6c2f…)`).
    var url: String
    /// Headers, e.g. `If-Match`, `Prefer`.
    var headers: [String: String] = [:]
    /// The JSON body, if any.
    var body: JSONValue?
    /// The atomicity group the request belongs to: all or none of the group is applied.
    /// A group's requests are adjacent in the batch.
    var atomicityGroup: String?
}

/// One answer in a JSON `$batch` answer.
struct ODataBatchResponse: Sendable, Equatable {
    /// The status the server gave this request.
    var status: Int
    /// Its headers, names in lower case.
    var headers: [String: String]
    /// Its JSON body; a text body is kept as a JSON string.
    var body: JSONValue?
}

/// What became of one request of a batch, as the store must read it.
enum ODataBatchOutcome: Sendable, Equatable {
    /// The request's own answer, which says what happened to it.
    case answered(ODataBatchResponse)
    /// The request was in an atomicity group that failed: nothing of the group was applied,
    /// whatever status the server listed for this request (some list 201/200 for the
    /// requests it undid). `cause` is the group's failing answer, when it is listed.
    case rolledBack(group: String, cause: ODataBatchResponse?)
    /// No answer names the request (the server stopped at an earlier failure).
    case unanswered
}

/// Writes a JSON `$batch` body and reads its answer. Pure: ``body(_:)`` maps requests to
/// bytes, ``outcomes(of:for:)`` maps answer bytes to one outcome per request or throws an
/// ``OfflineStoreError`` naming what is wrong.
enum ODataBatch {
    /// The JSON body for `POST $batch` (`Content-Type: application/json`).
    ///
    /// - Throws: ``OfflineStoreError`` `invalidOperation` for an empty or repeated id, a group
    ///   whose requests are not adjacent, or a group named like a request.
    static func body(_ requests: [ODataBatchRequest]) throws -> Data {
        var ids = Set<String>(), closedGroups = Set<String>(), current: String?
        for request in requests {
            guard !request.id.isEmpty, ids.insert(request.id).inserted else {
                throw OfflineStoreError(.invalidOperation, "batch request ids must be unique and not empty: \"\(request.id)\"")
            }
            if request.atomicityGroup != current {
                if let current { closedGroups.insert(current) }
                current = request.atomicityGroup
                if let group = current, closedGroups.contains(group) {
                    throw OfflineStoreError(.invalidOperation, "the requests of atomicity group \"\(group)\" are not adjacent")
                }
            }
        }
        if let clash = Set(requests.compactMap(\.atomicityGroup)).intersection(ids).first {
            throw OfflineStoreError(.invalidOperation, "\"\(clash)\" names both a request and an atomicity group")
        }
        let items: [JSONValue] = requests.map { request in
            var item: [String: JSONValue] = ["id": .string(request.id), "method": .string(request.method),
                                             "url": .string(request.url)]
            var headers = request.headers
            if let body = request.body {
                item["body"] = body
                if !headers.keys.contains(where: { $0.lowercased() == "content-type" }) {
                    headers["Content-Type"] = "application/json"
                }
            }
            if !headers.isEmpty { item["headers"] = .object(headers.mapValues(JSONValue.string)) }
            if let group = request.atomicityGroup { item["atomicityGroup"] = .string(group) }
            return .object(item)
        }
        return Data(JSONValue.object(["requests": .array(items)]).serialized().utf8)
    }

    /// Reads a `$batch` answer into one outcome per sent request, in the order sent.
    ///
    /// A group counts as failed when one of its answers is 4xx/5xx or one of its requests
    /// has no answer; every request of a failed group but the failing one is then
    /// `.rolledBack`, whatever its own listed status.
    ///
    /// - Throws: ``OfflineStoreError`` `badResponse` for a body that is not a batch answer,
    ///   an answer without an id or with an id that was not sent, or one id answered twice.
    static func outcomes(of answer: some ContiguousBytes, for requests: [ODataBatchRequest]) throws -> [ODataBatchOutcome] {
        let answers = try responses(answer, sent: Set(requests.map(\.id)))
        var outcomes = requests.map { answers[$0.id].map(ODataBatchOutcome.answered) ?? .unanswered }
        var index = 0
        while index < requests.count {
            guard let group = requests[index].atomicityGroup else { index += 1; continue }
            let members = requests[index...].prefix { $0.atomicityGroup == group }
            let range = index..<index + members.count
            index = range.upperBound
            let failing = range.first { (answers[requests[$0].id]?.status ?? 0) >= 400 }
            let incomplete = range.contains { answers[requests[$0].id] == nil }
            guard failing != nil || incomplete else { continue }
            let cause = failing.flatMap { answers[requests[$0].id] }
            for position in range where position != failing {
                outcomes[position] = .rolledBack(group: group, cause: cause)
            }
        }
        return outcomes
    }

    private static func responses(_ answer: some ContiguousBytes, sent: Set<String>) throws -> [String: ODataBatchResponse] {
        let json: JSONValue
        do { json = try JSONValue(parsing: answer) } catch {
            throw OfflineStoreError(.badResponse, "the $batch answer is not JSON: \(error)")
        }
        guard let items = json["responses"]?.arrayValue else {
            throw OfflineStoreError(.badResponse, "the $batch answer has no \"responses\" array")
        }
        var answers: [String: ODataBatchResponse] = [:]
        for (index, item) in items.enumerated() {
            guard let id = item["id"]?.stringValue else {
                throw OfflineStoreError(.badResponse, "answer \(index) of the $batch has no string \"id\"")
            }
            guard sent.contains(id) else {
                throw OfflineStoreError(.badResponse, "answer \(index) of the $batch names \"\(id)\", which was not sent")
            }
            guard let status = item["status"]?.intValue, (100...599).contains(status) else {
                throw OfflineStoreError(.badResponse, "the $batch answer to \"\(id)\" has no HTTP status")
            }
            var headers: [String: String] = [:]
            for (name, value) in item["headers"]?.objectValue ?? [:] {
                guard let text = value.stringValue else {
                    throw OfflineStoreError(.badResponse, "the $batch answer to \"\(id)\" has a header \(name) that is not a string")
                }
                headers[name.lowercased()] = text
            }
            let response = ODataBatchResponse(status: Int(status), headers: headers, body: item["body"])
            guard answers.updateValue(response, forKey: id) == nil else {
                throw OfflineStoreError(.badResponse, "the $batch answers \"\(id)\" twice")
            }
        }
        return answers
    }
}
