import Testing
@testable import OfflineStore

/// ``FlushOverlapRule``: the next batch goes out before a batch's answers are written only
/// when every answer is a plain success, a create's naming the id sent, and the next batch
/// holds no entry of an object on the wire.
@Suite struct FlushOverlapRuleTests {
    static let ok = PushOutcomeRule.applied(record: ["id": "a"], version: "1")
    static func op(_ id: String, _ kind: QueueEntry.Kind = .create) -> PushOperation {
        PushOperation(id: id, kind: kind, data: ["id": .string(id)], baseVersion: nil, idempotencyKey: "k-\(id)")
    }

    @Test(arguments: [
        ("every answer applied", [ok, .applied(record: ["id": "b"], version: "1")], [op("a"), op("b")], true),
        ("an answer without a record", [ok, .applied(record: nil, version: "2")], [op("a"), op("b")], true),
        ("an update answered with another id (not a create: no re-key)", [.applied(record: ["id": "z"], version: "2")],
         [op("a", .update)], true),
        ("a create answered with another id (a re-key, or an answer that cannot be written)",
         [.applied(record: ["id": "z"], version: "2")], [op("a")], false),
        ("a conflict (the policy or the resolver settles it)", [ok, .conflict(server: ["id": "b"], version: "3")], [op("a"), op("b")], false),
        ("a rejection (the failed-entry handler)", [.rejected(status: 422, body: nil), ok], [op("b"), op("a")], false),
        ("a retry (the run stops)", [ok, .retry(status: 503, message: "busy", retryAfter: nil)], [op("a"), op("b")], false),
        ("applied, then deleted on the server", [.appliedThenDeleted(record: ["id": "a"], version: "4")], [op("a")], false),
        ("fewer answers than operations", [ok], [op("a"), op("b")], false),
        ("no answer", [], [], false),
    ] as [(String, [PushOutcomeRule], [PushOperation], Bool)])
    func mayOverlap(_ name: String, answers: [PushOutcomeRule], sent: [PushOperation], overlaps: Bool) {
        #expect(FlushOverlapRule.mayOverlap(answers, sent: sent) == overlaps, "\(name)")
    }

    static let wire = [SyncEnginePureTests.entry(1, "todos", "x"), SyncEnginePureTests.entry(2, "todos", "y")]

    @Test(arguments: [
        ("other objects", [SyncEnginePureTests.entry(3, "todos", "z")], true),
        ("the same id in another collection", [SyncEnginePureTests.entry(3, "lists", "x")], true),
        ("a later entry of an object on the wire", [SyncEnginePureTests.entry(3, "todos", "z"), SyncEnginePureTests.entry(4, "todos", "y")],
         false),
        ("nothing", [], true),
    ] as [(String, [QueueEntry], Bool)])
    func follows(_ name: String, next: [QueueEntry], follows: Bool) {
        #expect(FlushOverlapRule.follows(next, onWire: Self.wire) == follows, "\(name)")
    }

    static func e(_ seq: Int64, _ collection: String, _ kind: QueueEntry.Kind) -> QueueEntry {
        SyncEnginePureTests.entry(seq, collection, "o\(seq)", kind)
    }

    /// Collections by what their server does: `server` assigns ids, `refresh` makes the flush
    /// refresh before resending a create, `client` neither.
    static func traits(_ collection: String) -> BackendTraits {
        BackendTraits(assignsIDs: collection == "server", refreshesBeforeResendingCreates: collection == "refresh")
    }

    @Test(arguments: [
        ("creates after creates, ids the client's", [e(1, "client", .create)], [e(2, "client", .create)], true),
        ("updates after creates the server gives ids: that answer forbids the overlap", [e(1, "server", .create)],
         [e(2, "client", .update)], false),
        ("updates after updates, ids the server's", [e(1, "server", .update)], [e(2, "server", .update)], true),
        ("a create of server-assigned ids, a kill would make it a possible resend", [e(1, "client", .update)],
         [e(2, "server", .update), e(3, "server", .create)], false),
        ("a create where a resend costs a refresh first", [e(1, "client", .create)], [e(2, "refresh", .create)], false),
        ("deletes where a resend of a create costs a refresh", [e(1, "client", .create)], [e(2, "refresh", .delete)], true),
        ("nothing to stage", [e(1, "client", .create)], [], false),
    ] as [(String, [QueueEntry], [QueueEntry], Bool)])
    func mayStage(_ name: String, onWire: [QueueEntry], next: [QueueEntry], stages: Bool) {
        #expect(FlushOverlapRule.mayStage(next, onWire: onWire, traits: Self.traits) == stages, "\(name)")
    }

    /// The part decided before the queue is read: only the batch on the wire.
    @Test(arguments: [
        ("creates the server gives ids", [e(1, "server", .create), e(2, "server", .update)], false),
        ("updates of server-assigned ids", [e(1, "server", .update)], true),
        ("creates of the client's ids", [e(1, "client", .create)], true),
        ("creates where a resend refreshes first (ids the client's)", [e(1, "refresh", .create)], true),
    ] as [(String, [QueueEntry], Bool)])
    func mayStageBehind(_ name: String, onWire: [QueueEntry], stages: Bool) {
        #expect(FlushOverlapRule.mayStage(behind: onWire, traits: Self.traits) == stages, "\(name)")
    }
}
