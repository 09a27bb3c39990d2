import Foundation
import Testing
@testable import OfflineStore

/// The sync engine's rules as values: what an answer means, what a pulled change does, the
/// queue entry's lifecycle and the flush run's steps. No SQLite, no HTTP.
@Suite struct EngineRuleTests {
    // MARK: PushOutcomeRule: one row per kind of answer

    @Test(arguments: [
        (PushOutcome.applied(record: ["id": "a"], version: "2"), PushOutcomeRule.applied(record: ["id": "a"], version: "2"), true),
        (.createdThenDeleted(record: ["id": "a"], version: "3"), .appliedThenDeleted(record: ["id": "a"], version: "3"), true),
        (.conflict(server: ["id": "a", "t": "sent"], version: "4"), .applied(record: ["id": "a", "t": "sent"], version: "4"), true),
        (.conflict(server: ["id": "a", "t": "theirs"], version: "4"), .conflict(server: ["id": "a", "t": "theirs"], version: "4"), false),
        (.conflict(server: nil, version: nil), .conflict(server: nil, version: nil), false),
        (.rejected(status: 422, body: "no"), .rejected(status: 422, body: "no"), false),
        (.retry(status: 503, message: "busy", retryAfter: .seconds(5)), .retry(status: 503, message: "busy", retryAfter: .seconds(5)), false),
    ] as [(PushOutcome, PushOutcomeRule, Bool)])
    func pushAnswers(outcome: PushOutcome, answer: PushOutcomeRule, pushed: Bool) {
        let decided = PushOutcomeRule.decide(outcome, sent: ["id": "a", "t": "sent"])
        #expect(decided == answer)
        #expect(decided.isPushed == pushed)
    }

    @Test func aDeleteAnsweredWithATombstoneConflictIsOurOwnWrite() {
        // A resent delete carries no payload; a 412 whose server copy is gone equals it.
        #expect(PushOutcomeRule.decide(.conflict(server: nil, version: "5"), sent: nil) == .applied(record: nil, version: "5"))
    }

    // MARK: RemoteChangeRule: one row per line of its table

    /// The pulled record of a change: `{"id": "a"}`, or nil for a tombstone.
    static func record(_ isTombstone: Bool) -> JSONValue? { isTombstone ? nil : ["id": "a"] }

    static func row(server: String? = "1", base: String? = nil, dirty: Bool = false, state: SyncState = .synced,
                    local: JSONValue? = ["id": "a"], baseCopy: JSONValue? = nil, copy: JSONValue = ["id": "a"]) -> ObjectRow {
        var row = ObjectRow(collection: "c", id: "a")
        row.persistent = copy
        row.serverVersion = server
        row.baseVersion = base
        row.base = baseCopy
        row.dirty = dirty
        row.local = dirty ? local : nil
        row.state = state
        return row
    }

    @Test(arguments: [
        ("unknown object, a record", nil as ObjectRow?, "1", false, RemoteChangeRule.insert),
        ("unknown object, a tombstone", nil, "1", true, .ignore),
        ("the version held already, the same copy", row(server: "1"), "1", false, .ignore),
        ("the version held already, another copy", row(server: "1", copy: ["id": "a", "v": 2]), "1", false, .replace),
        ("the version held already, a tombstone", row(server: "1"), "1", true, .delete),
        ("a local edit on the version held, another copy", row(server: "1", base: "1", dirty: true, state: .updated,
                                                             copy: ["id": "a", "v": 2]), "1", false, .ignore),
        ("a local edit on this very version", row(server: "2", base: "3", dirty: true, state: .updated), "3", false, .ignore),
        ("no local edit, a record", row(server: "1"), "2", false, .replace),
        ("no local edit, a tombstone", row(server: "1"), "2", true, .delete),
        ("conflicted", row(server: "1", base: "1", dirty: true, state: .conflicted), "2", false, .storeServerCopy),
        ("failed", row(server: "1", base: "1", dirty: true, state: .failed), "2", true, .storeServerCopy),
        ("a local edit, a record", row(server: "1", base: "1", dirty: true, state: .updated, baseCopy: ["id": "a"]), "2", false,
         .meetLocalEdit(tombstoneAgrees: false)),
        ("a local delete, a tombstone", row(server: "1", base: "1", dirty: true, state: .deleted, local: nil, baseCopy: ["id": "a"]), "2", true,
         .meetLocalEdit(tombstoneAgrees: true)),
        ("a local edit, a tombstone", row(server: "1", base: "1", dirty: true, state: .updated, baseCopy: ["id": "a"]), "2", true,
         .meetLocalEdit(tombstoneAgrees: false)),
        ("a create from nothing, a tombstone", row(server: "1", base: nil, dirty: true, state: .created), "2", true,
         .meetLocalEdit(tombstoneAgrees: true)),
    ] as [(String, ObjectRow?, String, Bool, RemoteChangeRule)])
    func remoteChanges(_ name: String, row: ObjectRow?, version: String, isTombstone: Bool, rule: RemoteChangeRule) {
        #expect(RemoteChangeRule.decide(row, version: version, record: Self.record(isTombstone)) == rule, "\(name)")
    }

    // MARK: QueueTransition: the lifecycle table

    @Test func theQueueLifecycleAllowsExactlyItsTransitions() {
        let expected: [QueueTransition: (from: Set<QueueEntry.State>, to: QueueEntry.State?)] = [
            .send: ([.pending], .inFlight),
            .release: ([.inFlight], .pending),
            .requeue: ([.inFlight], .pending),
            .recover: ([.inFlight], .pending),
            .withdraw: ([.inFlight], .pending),
            .reject: ([.inFlight], .failed),
            .confirm: ([.inFlight, .pending], nil),
            .retry: ([.failed], .pending),
            .resend: ([.pending, .inFlight, .failed], .pending),
            .drop: ([.pending, .failed], nil),
            .forbid: ([.pending], .failed),
        ]
        #expect(Set(expected.keys) == Set(QueueTransition.allCases))
        for transition in QueueTransition.allCases {
            let (from, to) = expected[transition]!
            #expect(transition.sources == from, "\(transition)")
            #expect(transition.target == to, "\(transition)")
        }
        // Nothing in flight is dropped by the app, and a failed entry is never sent until retried.
        #expect(!QueueTransition.drop.sources.contains(.inFlight))
        #expect(!QueueTransition.send.sources.contains(.failed))
        // The queue table's statements are built from the table: the sources' condition and the target state.
        #expect(QueueTable.condition(.send) == "state IN ('pending')")
        #expect(QueueTable.condition(.resend) == "state IN ('pending', 'in-flight', 'failed')")
        #expect(QueueTable.target(.send) == "'in-flight'")
        #expect(QueueTable.target(.reject) == "'failed'")
    }

    // MARK: FlushStateMachine: the flush loop's steps

    static func entry(_ seq: Int64, _ collection: String) -> QueueEntry {
        SyncEnginePureTests.entry(seq, collection, "o\(seq)")
    }

    @Test func aFlushRunAsksLimitsThenPreparesEachCollectionOnceThenSends() {
        var run = FlushStateMachine()
        let batchA = [Self.entry(1, "a")]
        #expect(run.batchLimit == 1)
        #expect(run.next(for: []) == .uploadBlobs)
        #expect(run.next(for: batchA) == .askCapabilities)
        run.learnedBatchLimit(25)
        #expect(run.batchLimit == 25)
        #expect(run.next(for: batchA) == .prepare(collection: "a"))
        run.didPrepare("a")
        #expect(run.next(for: batchA) == .send(batchA))
        let batchB = [Self.entry(2, "b"), Self.entry(3, "b")]
        #expect(run.next(for: batchB) == .prepare(collection: "b"))
        run.didPrepare("b")
        #expect(run.next(for: batchB) == .send(batchB))
        #expect(run.next(for: batchA) == .send(batchA), "a collection is prepared once per run")
    }

    @Test func anEntrySentThreeTimesInOneRunIsExhausted() {
        var run = FlushStateMachine()
        run.didSend([7, 8])
        run.didSend([7])
        #expect(run.exhausted.isEmpty)
        run.didSend([7])
        #expect(run.exhausted == [7])
        #expect(run.sends[8] == 1)
    }

    @Test func aBatchLimitBelowOneIsTakenAsOne() {
        var run = FlushStateMachine()
        run.learnedBatchLimit(0)
        #expect(run.batchLimit == 1)
    }
}
