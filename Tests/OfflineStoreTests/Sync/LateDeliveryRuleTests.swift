import Foundation
import Testing
@testable import OfflineStore

/// ``LateDeliveryRule``: when a pulled record (or a 412's server copy) is a late delivery of
/// one of this store's own creates. One row per line of its table. No SQLite, no HTTP.
@Suite struct LateDeliveryRuleTests {
    static let sent: JSONValue = ["id": "k", "a": 1]

    static func create(_ id: String = "k", payload: JSONValue = sent, deleted: Bool = true, at version: String? = "100",
                       answered: Bool = true) -> WatchedCreate {
        WatchedCreate(objectID: id, payload: payload, sentAt: Date(timeIntervalSince1970: 0), deleted: deleted,
                      deletedVersion: deleted ? version : nil, isAnswered: answered)
    }

    static let rows: [(String, JSONValue?, String, LateDeliveryRule.Local, [WatchedCreate], Bool, LateDeliveryRule)] = [
        ("a tombstone", nil as JSONValue?, "120", LateDeliveryRule.Local.none, [create()], false, LateDeliveryRule.notLate),
        ("nothing watched", sent, "120", .none, [], false, .notLate),
        ("what we sent, after our delete, unknown here", sent, "120", .none, [create()], false, .undo),
        ("what we sent, but never deleted since", sent, "120", .none, [create(deleted: false)], false, .notLate),
        ("what we sent, at or before the deletion (a stale page)", sent, "100", .none, [create()], false, .notLate),
        ("what we sent, after a deletion of unknown version", sent, "120", .none, [create(at: nil)], false, .undo),
        ("another copy: a genuine re-create", ["id": "k", "a": 2], "120", .none, [create()], false, .notLate),
        ("a copy holding more than we sent (Kinto: another write)", ["id": "k", "a": 1, "b": 2], "120", .none, [create()], false, .notLate),
        ("what another id's create sent", sent, "120", .none, [create("j")], false, .notLate),
        ("what we sent, over a synced copy at another version", sent, "120", .synced(version: "110"), [create()], false, .undo),
        ("what we sent, the version held already", sent, "120", .synced(version: "120"), [create()], false, .notLate),
        ("what we sent, under a local edit", sent, "120", .edited, [create()], false, .supersede),
        ("what we sent, on a conflicted object", sent, "120", .conflictedOrFailed, [create()], false, .notLate),
        ("server ids: another id holding every field of an answered create", ["id": "7", "a": 1, "updatedAt": "t"], "9",
         .none, [create("5", deleted: false)], true, .undo),
        ("server ids: the create not answered yet (its answer adopts it)", ["id": "7", "a": 1], "9",
         .none, [create("5", deleted: false, answered: false)], true, .notLate),
        ("server ids: a record missing a field we sent", ["id": "7", "updatedAt": "t"], "9",
         .none, [create("5", deleted: false)], true, .notLate),
        ("server ids: known here", ["id": "7", "a": 1], "9", .synced(version: "8"), [create("5", deleted: false)], true, .notLate),
        ("client ids: another id holding every field is no duplicate", ["id": "7", "a": 1], "9",
         .none, [create("5", deleted: false)], false, .notLate),
    ]

    @Test(arguments: rows)
    func rule(_ name: String, record: JSONValue?, version: String, local: LateDeliveryRule.Local, creates: [WatchedCreate],
              assignsIDs: Bool, expected: LateDeliveryRule) {
        let id = record?["id"]?.stringValue ?? "k"
        #expect(LateDeliveryRule.decide(id: id, record: record, version: version, local: local, creates: creates,
                                     assignsIDs: assignsIDs) == expected, "\(name)")
    }

    /// The engine reads the object's row only when the rule finds a candidate without it.
    @Test func withoutACandidateTheObjectDoesNotMatter() {
        let locals: [LateDeliveryRule.Local] = [.none, .synced(version: "110"), .edited, .conflictedOrFailed]
        for (name, record, version, _, creates, assignsIDs, _) in Self.rows {
            let id = record?["id"]?.stringValue ?? "k"
            guard LateDeliveryRule.decide(id: id, record: record, version: version, local: .none, creates: creates,
                                       assignsIDs: assignsIDs) == .notLate else { continue }
            for local in locals {
                #expect(LateDeliveryRule.decide(id: id, record: record, version: version, local: local, creates: creates,
                                             assignsIDs: assignsIDs) == .notLate, "\(name), \(local)")
            }
        }
    }

    @Test(arguments: [
        ("120", "100" as String?, true), ("100", "100", false), ("99", "100", false), ("\"e2\"", "\"e1\"", true),
        ("\"e1\"", "\"e1\"", false), ("5", nil, true),
    ] as [(String, String?, Bool)])
    func versionsAfterTheDeletion(version: String, deleted: String?, newer: Bool) {
        #expect(LateDeliveryRule.isNewer(version, than: deleted) == newer)
    }
}
