import Testing
@testable import OfflineStore

/// ``FlushOverlapRule``: the next batch goes out before a batch's answers are written only
/// when every answer is a plain success and the server does not assign the ids.
@Suite struct FlushOverlapRuleTests {
    static let ok = PushOutcomeRule.applied(record: ["id": "a"], version: "1")

    @Test(arguments: [
        ("every answer applied", [ok, ok], false, true),
        ("a conflict answered with the payload is applied", [ok, .applied(record: nil, version: "2")], false, true),
        ("the server assigns the ids (a create re-keys)", [ok, ok], true, false),
        ("a conflict (the policy or the resolver settles it)", [ok, .conflict(server: ["id": "b"], version: "3")], false, false),
        ("a rejection (the failed-entry handler)", [.rejected(status: 422, body: nil), ok], false, false),
        ("a retry (the run stops)", [ok, .retry(status: 503, message: "busy", retryAfter: nil)], false, false),
        ("applied, then deleted on the server", [.appliedThenDeleted(record: ["id": "a"], version: "4")], false, false),
        ("no answer", [], false, false),
    ] as [(String, [PushOutcomeRule], Bool, Bool)])
    func rule(_ name: String, answers: [PushOutcomeRule], assignsIDs: Bool, overlaps: Bool) {
        #expect(FlushOverlapRule.mayOverlap(answers, serverAssignsIDs: assignsIDs) == overlaps, "\(name)")
    }
}
