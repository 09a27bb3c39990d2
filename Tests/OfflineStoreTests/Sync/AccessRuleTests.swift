import Foundation
import Testing
@testable import OfflineStore

/// The sharing rules as values: what Kinto's answers to a preparation mean, which errors stay
/// with one collection, the kind of a failed entry, and the flush skipping a refused collection.
@Suite struct AccessRuleTests {
    @Test(arguments: [
        (201, nil, false, nil, KintoAccessRule.access(.readWrite)),   // created
        (412, 200, true, nil, .access(.readWrite)),                    // exists, the user sees its permissions: writes it
        (412, 200, false, true, .access(.readWrite)),                  // write inherited from the bucket
        (412, 200, false, false, .access(.readOnly)),                  // readable only
        (403, 200, false, false, .access(.readOnly)),
        (412, 403, false, nil, .refused),                              // exists, not readable (another user's)
        (403, 403, false, nil, .refused),                              // missing, not creatable
        (403, 404, false, nil, .refused),
        (412, 500, false, nil, .failed),
        (401, nil, false, nil, .failed),                               // the credentials: the run's error
        (503, nil, false, nil, .failed),
    ] as [(Int, Int?, Bool, Bool?, KintoAccessRule)])
    func kintoPreparation(create: Int, read: Int?, shows: Bool, bucketShows: Bool?, access: KintoAccessRule) {
        #expect(KintoAccessRule.access(createStatus: create, readStatus: read, showsPermissions: shows,
                                       bucketShowsPermissions: bucketShows) == access)
    }

    @Test(arguments: [(201, true), (412, true), (403, true), (401, false), (500, false)])
    func bucketStep(status: Int, usable: Bool) {
        #expect(KintoAccessRule.bucketUsable(status: status) == usable)
    }

    @Test(arguments: [(403, QueueEntry.Failure.forbidden), (400, .rejected), (404, .rejected), (422, .rejected)] as [(Int?, QueueEntry.Failure)]
          + [(nil, .rejected)])
    func failedEntryKind(status: Int?, failure: QueueEntry.Failure) {
        #expect(FailureRule.failure(status: status) == failure)
    }

    @Test(arguments: [
        (OfflineStoreError.Code.forbidden, true), (.unauthorized, false), (.offline, false), (.timeout, false),
        (.server, false), (.cancelled, false), (.serverLostData, false),
    ])
    func onlyAForbiddenCollectionIsIsolated(code: OfflineStoreError.Code, isolated: Bool) {
        #expect(FailureRule.isCollectionRefusal(OfflineStoreError(code, "x")) == isolated)
    }

    @Test func aRefusedCollectionIsSkippedAndTheNextOneFormsTheBatch() {
        let now = Date()
        func candidate(_ seq: Int64, _ collection: String) -> FlushPlan.Candidate {
            .init(entry: QueueEntry(seq: seq, collection: collection, objectID: "o\(seq)", kind: .create, baseVersion: nil,
                                    idempotencyKey: "k\(seq)", attempts: 0, lastError: nil, status: nil, responseBody: nil,
                                    state: .pending, createdAt: now, notBefore: nil), objectState: .created)
        }
        let queue = [candidate(1, "shared"), candidate(2, "mine"), candidate(3, "shared"), candidate(4, "mine")]
        #expect(FlushPlan.plan(queue, maxSize: 10).batch.map(\.seq) == [1])
        #expect(FlushPlan.plan(queue, maxSize: 10, skippingCollections: ["shared"]).batch.map(\.seq) == [2, 4])
        var machine = FlushStateMachine()
        machine.didRefuse("shared")
        #expect(machine.refused == ["shared"])
    }

    @Test func aReportNamesEachRefusedCollectionOncePerDirection() {
        var report = SyncReport()
        let error = OfflineStoreError(.forbidden, "no", status: 403)
        report.refuse("shared", .push, error)
        report.refuse("shared", .push, error)
        report.refuse("shared", .pull, error)
        var total = SyncReport()
        total.absorb(report)
        #expect(total.refused.map(\.collection) == ["shared", "shared"])
        #expect(total.refused.map(\.direction) == [.push, .pull])
        #expect(total.refused.first?.status == 403)
    }
}
