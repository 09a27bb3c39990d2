import Foundation
import OfflineStore

/// `rest-pull`: scripted server answers into `RESTBackend.pull`, page after page: envelopes,
/// counts, cursors, `Link` headers, body links, page numbers and offsets.
enum RESTPullFuzzing {
    static let target = FuzzTarget(
        name: "rest-pull",
        summary: "first byte: the resource (paging kind); the rest: answers (ScriptedAnswers) → RESTBackend.pull until the last page: "
            + "typed errors only; unique ids, records whose id is the change's; stored cursors the server sent; requests on the server's origin",
        fuzzerFlags: FuzzTarget.asyncFlags,
        check: check)

    /// The most pages one input is pulled for.
    static let maximumPages = 8

    static func check(_ input: [UInt8]) throws(PropertyViolation) {
        var choices = FuzzInput(input)
        let resource = RESTFuzzResources.resource(choices.byte())
        let since: String? = choices.byte() % 2 == 0 ? nil : "2026-01-01T00:00:00.000000Z"
        let answers = ScriptedAnswers.parse(choices.rest)
        let transport = ScriptedTransport(answers)
        let backend = RESTFuzzResources.backend(resource, transport: transport)
        let outcome = runBlocking { () -> Result<[PullPage], any Error> in
            var pages: [PullPage] = []
            do {
                var next: PullContinuation?
                repeat {
                    let page = try await backend.pull(PullRequest(collection: RESTFuzzResources.collection, cursor: since, continuation: next))
                    pages.append(page)
                    next = page.next
                } while next != nil && pages.count < maximumPages
                return .success(pages)
            } catch {
                return .failure(error)
            }
        }
        for request in transport.sent {
            try require(RESTFuzzResources.isServerOrigin(request.url),
                        "a pull sends its requests (and credentials) only to the server's origin", request.url.absoluteString)
        }
        switch outcome {
        case .failure(let error):
            guard let error = error as? OfflineStoreError else { throw PropertyViolation("a pull throws only OfflineStoreError", "\(error)") }
            try require(RESTFuzzResources.answerCodes.contains(error.code), "a pull fails with a code for a bad answer",
                        "\(error.code): \(error.message)")
        case .success(let pages):
            let marks = Set(answers.flatMap(cursorMarks(resource)))
            for page in pages { try checkPage(page, resource: resource, marks: marks, since: since) }
        }
    }

    /// What a page must hold. (Whether a record lost its version and tombstone fields is not
    /// checked: another remote name can map to the same local name, `version_` to `version`.)
    static func checkPage(_ page: PullPage, resource: RESTResource, marks: Set<String>, since: String?) throws(PropertyViolation) {
        var ids = Set<String>()
        for change in page.changes {
            try require(!change.id.isEmpty, "a change has an id")
            try require(ids.insert(change.id).inserted, "a page holds one change per id", change.id)
            guard let record = change.record else { continue }
            try require(record["id"] == .string(change.id), "a record's id is the change's id (a string)", shown(record))
        }
        if let cursor = page.cursor {
            try require(resource.pull.cursorParameter != nil, "a feed without a cursor parameter stores no cursor", cursor)
            try require(marks.contains(cursor) || cursor == since, "a stored cursor is a value the server sent", cursor)
        }
    }

    /// The cursor field's string values in an answer's records, wherever they are.
    static func cursorMarks(_ resource: RESTResource) -> (HTTPResponse) -> [String] {
        { answer in
            guard let json = try? JSONValue(parsing: answer.body) else { return [] }
            var found: [String] = []
            func walk(_ value: JSONValue) {
                switch value {
                case .object(let members):
                    if let mark = members[resource.pull.cursorField]?.stringValue { found.append(mark) }
                    members.values.forEach(walk)
                case .array(let items): items.forEach(walk)
                default: break
                }
            }
            walk(json)
            return found
        }
    }
}
