import Foundation
import Testing
@testable import OfflineStore

/// The engine's decisions that need no I/O: batch planning, merging, backoff, conflict policy.
@Suite struct SyncEnginePureTests {
    static func entry(_ seq: Int64, _ collection: String, _ id: String, _ kind: QueueEntry.Kind = .update,
                      state: QueueEntry.State = .pending) -> QueueEntry {
        QueueEntry(seq: seq, collection: collection, objectID: id, kind: kind, baseVersion: nil, idempotencyKey: "k\(seq)",
                   attempts: 0, lastError: nil, status: nil, responseBody: nil, state: state,
                   createdAt: Date(timeIntervalSince1970: 0), notBefore: nil)
    }

    static func candidates(_ entries: [QueueEntry], conflicted: Set<String> = []) -> [FlushPlan.Candidate] {
        entries.map { FlushPlan.Candidate(entry: $0, objectState: conflicted.contains($0.objectID) ? .conflicted : .updated) }
    }

    @Test func aBatchKeepsFIFOOrderAndStopsAtAnotherCollection() {
        let plan = FlushPlan.plan(Self.candidates([
            Self.entry(1, "a", "x"), Self.entry(2, "a", "y"), Self.entry(3, "b", "z"), Self.entry(4, "a", "w"),
        ]), maxSize: 10)
        #expect(plan.batch.map(\.seq) == [1, 2])
        #expect(plan.isDecided, "another collection's entry ends the batch: later entries cannot change it")
    }

    @Test func aBatchHoldsAtMostOneEntryPerObjectAndRespectsTheSize() {
        let entries = [Self.entry(1, "a", "x"), Self.entry(2, "a", "x"), Self.entry(3, "a", "y"), Self.entry(4, "a", "z")]
        #expect(FlushPlan.plan(Self.candidates(entries), maxSize: 10).batch.map(\.seq) == [1, 3, 4])
        #expect(FlushPlan.plan(Self.candidates(entries), maxSize: 2).batch.map(\.seq) == [1, 3])
    }

    @Test func failedAndConflictedObjectsAreHeldBackWithTheirLaterEntries() {
        let entries = [
            Self.entry(1, "a", "failed", state: .failed), Self.entry(2, "a", "failed"),
            Self.entry(3, "a", "conflicted"), Self.entry(4, "a", "ok"),
        ]
        let plan = FlushPlan.plan(Self.candidates(entries, conflicted: ["conflicted"]), maxSize: 10)
        #expect(plan.batch.map(\.seq) == [4])
        #expect(!plan.isDecided, "neither full nor stopped: a later entry could still join the batch")
    }

    /// The table of ``FlushPlan/plan(_:maxSize:skipping:)``'s `isDecided`: the flush reads
    /// further pages of the queue exactly while it is false.
    @Test(arguments: [
        ("empty queue", [] as [(Int64, String, String)], 2, [] as [Int64], false),
        ("room left", [(1, "a", "x")], 2, [1], false),
        ("full", [(1, "a", "x"), (2, "a", "y")], 2, [1, 2], true),
        ("another collection", [(1, "a", "x"), (2, "b", "y")], 2, [1], true),
        ("full at a limit of one", [(1, "a", "x"), (2, "a", "x")], 1, [1], true),
    ] as [(String, [(Int64, String, String)], Int, [Int64], Bool)])
    func aPlanIsDecidedWhenFullOrStoppedAtAnotherCollection(_ name: String, rows: [(Int64, String, String)], maxSize: Int,
                                                             batch: [Int64], decided: Bool) {
        let plan = FlushPlan.plan(Self.candidates(rows.map { Self.entry($0.0, $0.1, $0.2) }), maxSize: maxSize)
        #expect(plan.batch.map(\.seq) == batch, "\(name)")
        #expect(plan.isDecided == decided, "\(name)")
    }

    @Test func skippedEntriesBlockTheirObjectButNotOthers() {
        let entries = [Self.entry(1, "a", "x"), Self.entry(2, "a", "x"), Self.entry(3, "a", "y")]
        #expect(FlushPlan.plan(Self.candidates(entries), maxSize: 10, skipping: [1]).batch.map(\.seq) == [3])
    }

    @Test func mergeTakesEachSidesOwnChanges() {
        let merged = ThreeWayMerge.merge(base: ["a": 1, "b": 1, "c": 1], local: ["a": 2, "b": 1, "c": 1, "d": 4],
                                         server: ["a": 1, "b": 3])
        #expect(merged == ["a": 2, "b": 3, "d": 4])  // c removed on the server, d added locally
    }

    @Test func mergeOfTheSameChangeOnBothSidesIsNoClash() {
        #expect(ThreeWayMerge.merge(base: ["a": 1], local: ["a": 2], server: ["a": 2]) == ["a": 2])
    }

    /// The table of ``ThreeWayMerge/merge(base:preferred:other:)``: a field changed on one
    /// side only takes that side's value; a clash takes the preferred side's; a side that is
    /// not an object gives the preferred value whole.
    @Test(arguments: [
        ("each side's own change", ["a": 1, "b": 1] as JSONValue?, ["a": 2, "b": 1] as JSONValue, ["a": 1, "b": 3] as JSONValue,
         ["a": 2, "b": 3] as JSONValue),
        ("a clash takes the preferred", ["a": 1], ["a": 2], ["a": 3], ["a": 2]),
        ("removed by the other side", ["a": 1, "b": 1], ["a": 1, "b": 1], ["a": 1], ["a": 1]),
        ("added by the other side", nil, ["a": 1], ["a": 1, "c": 5], ["a": 1, "c": 5]),
        ("a removal on the preferred side wins a clash", ["a": 1, "b": 1], ["a": 1], ["a": 1, "b": 2], ["a": 1]),
        ("other is no object", ["a": 1], ["a": 2], .null, ["a": 2]),
        ("preferred is no object", ["a": 1], .null, ["a": 2], .null),
    ] as [(String, JSONValue?, JSONValue, JSONValue, JSONValue)])
    func mergePreferringOneSide(_ name: String, base: JSONValue?, preferred: JSONValue, other: JSONValue, merged: JSONValue) {
        #expect(ThreeWayMerge.merge(base: base, preferred: preferred, other: other) == merged, "\(name)")
    }

    @Test func mergeGivesNilOnAClashOrADelete() {
        #expect(ThreeWayMerge.merge(base: ["a": 1], local: ["a": 2], server: ["a": 3]) == nil)
        #expect(ThreeWayMerge.merge(base: ["a": 1], local: nil, server: ["a": 3]) == nil)
        #expect(ThreeWayMerge.merge(base: ["a": 1], local: ["a": 2], server: nil) == nil)
    }

    @Test func backoffDoublesAndIsCapped() {
        #expect(RetryBackoff.delay(afterAttempt: 1) == .seconds(1))
        #expect(RetryBackoff.delay(afterAttempt: 2) == .seconds(2))
        #expect(RetryBackoff.delay(afterAttempt: 4) == .seconds(8))
        #expect(RetryBackoff.delay(afterAttempt: 40) == .seconds(300))
    }

    @Test func identicalCopiesAreNoConflictWhateverThePolicy() {
        let same = Conflict(collection: "c", id: "i", base: ["v": 1], local: ["v": 2], server: ["v": 2], serverVersion: "9")
        #expect(ConflictRule.decide(same, policy: .preserveConflict) == .keepServer)
        let bothDeleted = Conflict(collection: "c", id: "i", base: ["v": 1], local: nil, server: nil, serverVersion: "9")
        #expect(ConflictRule.decide(bothDeleted, policy: .clientWins) == .keepServer)
    }

    @Test func policiesDecide() {
        let c = Conflict(collection: "c", id: "i", base: ["a": 1, "b": 1], local: ["a": 2, "b": 1], server: ["a": 1, "b": 3],
                         serverVersion: "9")
        #expect(ConflictRule.decide(c, policy: .preserveConflict) == .preserve)
        #expect(ConflictRule.decide(c, policy: .clientWins) == .keepLocal)
        #expect(ConflictRule.decide(c, policy: .serverWins) == .keepServer)
        #expect(ConflictRule.decide(c, policy: .merge) == .merged(["a": 2, "b": 3]))
        #expect(ConflictRule.decide(c, policy: .custom { _ in .keepLocal }) == nil)
    }
}
