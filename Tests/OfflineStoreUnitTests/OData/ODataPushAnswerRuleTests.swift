import Foundation
@testable import OfflineStore
import Testing

/// `ODataPushAnswerRule`: every status both kinds of service answer to a write, first sends
/// and repeats (Docs/ODataFacts.md, "Re-sent writes").
@Suite("OData push answer rule")
struct ODataPushAnswerRuleTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let kind: QueueEntry.Kind
        let status: Int
        let serverKey: Bool
        let attempt: Int
        let expected: ODataPushAnswerRule
        var testDescription: String { "\(kind.rawValue) \(status)\(serverKey ? " server key" : "") attempt \(attempt)" }
    }

    static let rows: [Row] = [
        // Success.
        Row(kind: .create, status: 201, serverKey: false, attempt: 1, expected: .applied),
        Row(kind: .create, status: 204, serverKey: true, attempt: 1, expected: .applied),
        Row(kind: .update, status: 200, serverKey: false, attempt: 1, expected: .applied),
        Row(kind: .update, status: 204, serverKey: false, attempt: 1, expected: .applied),
        Row(kind: .delete, status: 204, serverKey: false, attempt: 1, expected: .gone),
        // Credentials, permissions, a missing If-Match.
        Row(kind: .update, status: 401, serverKey: false, attempt: 1, expected: .unauthorized),
        Row(kind: .create, status: 403, serverKey: false, attempt: 1, expected: .rejected),
        Row(kind: .delete, status: 403, serverKey: true, attempt: 1, expected: .rejected),
        Row(kind: .update, status: 428, serverKey: false, attempt: 1, expected: .preconditionRequired),
        Row(kind: .delete, status: 428, serverKey: false, attempt: 1, expected: .preconditionRequired),
        // A create of an existing key: 409 on the delta service, 500 on the plain one.
        Row(kind: .create, status: 409, serverKey: false, attempt: 2, expected: .readBack(.create)),
        Row(kind: .create, status: 500, serverKey: false, attempt: 2, expected: .readBack(.create)),
        Row(kind: .create, status: 500, serverKey: false, attempt: 1, expected: .readBack(.create)),
        // A server key cannot be repeated onto: 500 is the server's failure.
        Row(kind: .create, status: 500, serverKey: true, attempt: 1, expected: .retry),
        Row(kind: .create, status: 500, serverKey: true, attempt: 3, expected: .rejected),
        // Updates.
        Row(kind: .update, status: 404, serverKey: false, attempt: 1, expected: .deletedOnServer),
        Row(kind: .update, status: 412, serverKey: false, attempt: 1, expected: .readBack(.update)),
        Row(kind: .update, status: 409, serverKey: true, attempt: 1, expected: .readBack(.update)),
        // A delete of a gone entity: 404 on the delta service, 412 with its old ETag on the plain one.
        Row(kind: .delete, status: 404, serverKey: false, attempt: 2, expected: .gone),
        Row(kind: .delete, status: 410, serverKey: false, attempt: 1, expected: .gone),
        Row(kind: .delete, status: 412, serverKey: false, attempt: 2, expected: .readBack(.delete)),
        Row(kind: .delete, status: 412, serverKey: true, attempt: 1, expected: .readBack(.delete)),
        // Everything else as on REST.
        Row(kind: .create, status: 400, serverKey: false, attempt: 1, expected: .rejected),
        Row(kind: .update, status: 429, serverKey: false, attempt: 1, expected: .retry),
        Row(kind: .update, status: 503, serverKey: false, attempt: 9, expected: .retry),
        Row(kind: .update, status: 500, serverKey: false, attempt: 1, expected: .retry),
        Row(kind: .update, status: 500, serverKey: false, attempt: 3, expected: .rejected),
        Row(kind: .delete, status: 501, serverKey: false, attempt: 1, expected: .rejected),
    ]

    @Test(arguments: rows) func decides(_ row: Row) {
        #expect(ODataPushAnswerRule.decide(kind: row.kind, status: row.status, serverKey: row.serverKey,
                                           attempt: row.attempt) == row.expected)
    }
}

/// `ODataPullState.refusesDeltaLink`: which answers to a stored delta link start a full pull.
@Suite("OData refused delta links")
struct ODataDeltaLinkRuleTests {
    @Test(arguments: [(400, true), (404, true), (410, true), (412, true), (401, false), (403, false), (408, false),
                      (429, false), (500, false), (503, false), (200, false)])
    func refuses(_ status: Int, _ expected: Bool) {
        #expect(ODataPullState.refusesDeltaLink(status: status) == expected)
    }

    @Test func aContinuationRoundTripsAndAForeignOneIsRefused() throws {
        let state = ODataPullState(next: .after("42"), deltaLink: "http://h/odata/Tasks?$deltatoken=6", restarted: true)
        #expect(try ODataPullState(state.continuation) == state)
        let error = #expect(throws: OfflineStoreError.self) { try ODataPullState(PullContinuation(token: "kinto:1")) }
        #expect(error?.code == .invalidOperation)
    }
}
