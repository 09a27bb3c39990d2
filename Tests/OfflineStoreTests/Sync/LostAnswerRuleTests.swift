import Foundation
import Testing
@testable import OfflineStore

/// ``LostAnswerRule``: a server copy is our own write when it equals what was sent, apart from
/// the fields the server writes itself. One row per line of its table.
@Suite struct LostAnswerRuleTests {
    static let managed: Set<String> = ["updatedAt", "createdAt"]

    @Test(arguments: [
        ("equal", ["id": "1", "a": 1] as JSONValue?, ["id": "1", "a": 1] as JSONValue?, Set<String>(), true),
        ("equal, with managed fields declared", ["id": "1", "a": 1], ["id": "1", "a": 1], managed, true),
        ("a new timestamp only", ["id": "1", "a": 1, "updatedAt": "t2"], ["id": "1", "a": 1, "updatedAt": "t1"], managed, true),
        ("a timestamp the create did not send", ["id": "1", "a": 1, "createdAt": "t"], ["id": "1", "a": 1], managed, true),
        ("a new timestamp, nothing declared (Kinto)", ["id": "1", "a": 1, "updatedAt": "t2"], ["id": "1", "a": 1, "updatedAt": "t1"],
         Set<String>(), false),
        ("another value", ["id": "1", "a": 2, "updatedAt": "t2"], ["id": "1", "a": 1], managed, false),
        ("a field removed", ["id": "1", "updatedAt": "t2"], ["id": "1", "a": 1], managed, false),
        ("a field not sent", ["id": "1", "a": 1, "b": 2], ["id": "1", "a": 1], managed, false),
        ("a tombstone for a delete", nil, nil, managed, true),
        ("a tombstone for a write", nil, ["id": "1", "a": 1], managed, false),
    ] as [(String, JSONValue?, JSONValue?, Set<String>, Bool)])
    func rule(_ name: String, record: JSONValue?, sent: JSONValue?, managed: Set<String>, own: Bool) {
        #expect(LostAnswerRule.isSentWrite(record, sent: sent, serverManaged: managed) == own, "\(name)")
    }
}
