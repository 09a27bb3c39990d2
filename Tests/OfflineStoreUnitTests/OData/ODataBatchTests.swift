import Foundation
@testable import OfflineStore
import Testing

/// `ODataBatch`: the JSON `$batch` body, and the answer read as one outcome per request,
/// a failed atomicity group failing as a whole whatever else the server listed.
@Suite("OData JSON batch")
struct ODataBatchTests {
    static let create = ODataBatchRequest(id: "1", method: "POST", url: "Tasks",
                                          body: ["ID": "00000000-0000-4000-8000-000000000009", "Title": "n"],
                                          atomicityGroup: "g")
    static let stale = ODataBatchRequest(id: "2", method: "PATCH", url: "Tasks(00000000-0000-4000-8000-000000000003)",
                                         headers: ["If-Match": "W/\"7\""], body: ["Title": "s"], atomicityGroup: "g")

    static func outcomes(_ answer: String, _ requests: [ODataBatchRequest]) throws -> [ODataBatchOutcome] {
        try ODataBatch.outcomes(of: Data(answer.utf8), for: requests)
    }

    @Test func theBodyListsEachRequestWithItsGroupHeadersAndBody() throws {
        let delete = ODataBatchRequest(id: "3", method: "DELETE", url: "Tasks(x)", headers: ["If-Match": "*"])
        let body = try JSONValue(parsing: ODataBatch.body([Self.create, Self.stale, delete]))
        #expect(body == ["requests": [
            ["id": "1", "method": "POST", "url": "Tasks", "atomicityGroup": "g",
             "headers": ["Content-Type": "application/json"],
             "body": ["ID": "00000000-0000-4000-8000-000000000009", "Title": "n"]],
            ["id": "2", "method": "PATCH", "url": "Tasks(00000000-0000-4000-8000-000000000003)", "atomicityGroup": "g",
             "headers": ["If-Match": "W/\"7\"", "Content-Type": "application/json"], "body": ["Title": "s"]],
            ["id": "3", "method": "DELETE", "url": "Tasks(x)", "headers": ["If-Match": "*"]],
        ]])
    }

    @Test(arguments: [
        ([("1", nil), ("1", nil)], "must be unique"),
        ([("", nil)], "must be unique and not empty"),
        ([("1", "g"), ("2", nil), ("3", "g")], #"atomicity group "g" are not adjacent"#),
        ([("1", "2"), ("2", nil)], #""2" names both a request and an atomicity group"#),
    ] as [([(String, String?)], String)])
    func malformedBatchesAreRefused(requests: [(String, String?)], says: String) {
        let batch = requests.map { ODataBatchRequest(id: $0.0, method: "GET", url: "Tasks", atomicityGroup: $0.1) }
        let error = #expect(throws: OfflineStoreError.self) { try ODataBatch.body(batch) }
        #expect(error?.code == .invalidOperation)
        #expect(error?.message.contains(says) == true, "\(error?.message ?? "")")
    }

    @Test func deltaModeListsOnlyTheFailingRequestAndTheRestOfTheGroupIsRolledBack() throws {
        let outcomes = try Self.outcomes(ODataSamples.deltaFailedGroup, [Self.create, Self.stale])
        guard case .answered(let failing) = outcomes[1] else { Issue.record("\(outcomes)"); return }
        #expect(failing.status == 412)
        #expect(failing.headers["odata-version"] == "4.01")
        #expect(outcomes[0] == .rolledBack(group: "g", cause: failing))
    }

    @Test func plainModesListed201IsReadAsRolledBack() throws {
        let outcomes = try Self.outcomes(ODataSamples.plainFailedGroup, [Self.create, Self.stale])
        guard case .answered(let failing) = outcomes[1] else { Issue.record("\(outcomes)"); return }
        #expect(failing.status == 412)
        #expect(failing.body?["error"]?["code"] == "PreconditionFailed")
        #expect(outcomes[0] == .rolledBack(group: "g", cause: failing))
    }

    @Test func aGroupWithAMissingAnswerIsRolledBackWithoutACause() throws {
        let answer = #"{"responses":[{"id":"1","atomicityGroup":"g","status":201,"headers":{}}]}"#
        #expect(try Self.outcomes(answer, [Self.create, Self.stale])
            == [.rolledBack(group: "g", cause: nil), .rolledBack(group: "g", cause: nil)])
    }

    @Test func requestsOutsideGroupsStandAlone() throws {
        let first = ODataBatchRequest(id: "a", method: "POST", url: "Tasks", body: ["Title": "a"])
        let second = ODataBatchRequest(id: "b", method: "DELETE", url: "Tasks(x)")
        let third = ODataBatchRequest(id: "c", method: "DELETE", url: "Tasks(y)")
        let answer = """
            {"responses":[{"id":"b","status":404,"headers":{"Content-Type":"application/json"},"body":{"error":{"code":"404","message":"Entity not found."}}},
                          {"id":"a","status":201,"headers":{"ETag":"W/\\"1\\""},"body":{"ID":"x"}}]}
            """
        let outcomes = try Self.outcomes(answer, [first, second, third])
        #expect(outcomes == [
            .answered(ODataBatchResponse(status: 201, headers: ["etag": "W/\"1\""], body: ["ID": "x"])),
            .answered(ODataBatchResponse(status: 404, headers: ["content-type": "application/json"],
                                         body: ["error": ["code": "404", "message": "Entity not found."]])),
            .unanswered,
        ])
    }

    @Test func aSucceededGroupKeepsEachAnswer() throws {
        let answer = #"{"responses":[{"id":"1","status":201,"headers":{}},{"id":"2","status":204,"headers":{}}]}"#
        #expect(try Self.outcomes(answer, [Self.create, Self.stale]) == [
            .answered(ODataBatchResponse(status: 201, headers: [:], body: nil)),
            .answered(ODataBatchResponse(status: 204, headers: [:], body: nil)),
        ])
    }

    @Test(arguments: [
        ("", "the $batch answer is not JSON"),
        (#"{"value":[]}"#, #"has no "responses" array"#),
        (#"{"responses":[{"status":200}]}"#, #"answer 0 of the $batch has no string "id""#),
        (#"{"responses":[{"id":"9","status":200}]}"#, #"names "9", which was not sent"#),
        (#"{"responses":[{"id":"1","status":"200"}]}"#, #"the $batch answer to "1" has no HTTP status"#),
        (#"{"responses":[{"id":"1","status":42}]}"#, #"the $batch answer to "1" has no HTTP status"#),
        (#"{"responses":[{"id":"1","status":200,"headers":{"ETag":1}}]}"#, "a header ETag that is not a string"),
        (#"{"responses":[{"id":"1","status":200},{"id":"1","status":200}]}"#, #"answers "1" twice"#),
    ])
    func answersThatAreNotBatchAnswersAreBadResponses(answer: String, says: String) {
        let error = #expect(throws: OfflineStoreError.self) { try Self.outcomes(answer, [Self.create, Self.stale]) }
        #expect(error?.code == .badResponse)
        #expect(error?.message.contains(says) == true, "\(error?.message ?? "")")
    }
}
