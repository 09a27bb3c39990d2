@testable import OfflineStore
import Testing

/// A pull asked from a cursor that started over from the beginning
/// (`PullPage.restartedFromTheBeginning`: an OData delta link the service refused): the
/// pipeline notes it, and the ids are kept for the sweep that follows such a pull.
@Suite("Restarted pulls")
struct RestartedPullTests {
    @Test(arguments: [(true, false, true), (true, true, false), (false, false, false), (false, true, false)])
    func idsAreKeptWhereAPullFromACursorMayStartOver(_ backendSweeps: Bool, _ fromTheBeginning: Bool, _ expected: Bool) {
        #expect(DeletionSweepRule.collectsForRestart(backendSweeps: backendSweeps, fromTheBeginning: fromTheBeginning) == expected)
    }

    @Test func aPageSayingSoMarksThePullRestartedAndItsIDsAreCollected() {
        var pipeline = RefreshPipeline(storesCursor: true, collectsIDs: true)
        var first = PullPage(changes: [RemoteChange(id: "a", record: ["id": "a"], version: "1")], cursor: nil,
                             next: PullContinuation(token: "n"))
        first.restartedFromTheBeginning = true
        _ = pipeline.pageEnded(first)
        _ = pipeline.pageEnded(PullPage(changes: [RemoteChange(id: "b", record: ["id": "b"], version: "2")], cursor: "d", next: nil))
        #expect(pipeline.restarted)
        #expect(pipeline.ids == ["a": "1", "b": "2"] && pipeline.lastCursor == "d")
    }

    @Test func anOrdinaryPullIsNotRestarted() {
        var pipeline = RefreshPipeline(storesCursor: true, collectsIDs: false)
        _ = pipeline.pageEnded(PullPage(changes: [], cursor: "c", next: nil))
        #expect(!pipeline.restarted)
    }
}
