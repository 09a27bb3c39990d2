import Foundation
import Testing
@testable import OfflineStore

/// The pure rules behind deletions found by a sweep and creates whose answer was lost on a
/// server that cannot replay them (``DeletionSweepRule``, ``LostAnswerRule``).
@Suite("REST recovery rules")
struct RESTRecoveryRuleTests {
    static func row(dirty: Bool = false, state: SyncState = .synced) -> ObjectRow {
        var row = ObjectRow(collection: "tasks", id: "1")
        row.persistent = ["id": "1"]
        row.serverVersion = "v"
        row.dirty = dirty
        row.state = state
        if dirty { row.local = ["id": "1", "title": "mine"] }
        return row
    }

    @Test(arguments: [
        ("listed", row(), false, true, ScopeRule.Departure.keep),
        ("unlisted, nothing pending", row(), false, false, .remove),
        ("unlisted, edited", row(dirty: true, state: .updated), true, false, .keep),
        ("unlisted, queued", row(), true, false, .keep),
        ("unlisted, conflicted", row(dirty: true, state: .conflicted), false, false, .keep),
        ("unlisted, failed", row(dirty: true, state: .failed), true, false, .keep),
    ])
    func sweepFate(_ name: String, _ row: ObjectRow, _ queued: Bool, _ listed: Bool, _ expected: ScopeRule.Departure) {
        #expect(DeletionSweepRule.fate(of: row, queued: queued, listed: listed) == expected, "\(name)")
    }

    @Test func aSweepRunsOnlyAfterAPullFromTheBeginningIntoAStoreHoldingServerCopies() {
        #expect(DeletionSweepRule.sweeps(backendSweeps: true, fromTheBeginning: true, holdsServerCopies: true))
        #expect(!DeletionSweepRule.sweeps(backendSweeps: true, fromTheBeginning: false, holdsServerCopies: true))
        #expect(!DeletionSweepRule.sweeps(backendSweeps: true, fromTheBeginning: true, holdsServerCopies: false))
        #expect(!DeletionSweepRule.sweeps(backendSweeps: false, fromTheBeginning: true, holdsServerCopies: true))
    }

    static func entry(_ seq: Int64, _ collection: String, _ kind: QueueEntry.Kind, attempts: Int) -> QueueEntry {
        QueueEntry(seq: seq, collection: collection, objectID: "o\(seq)", kind: kind, baseVersion: nil, idempotencyKey: "k\(seq)",
                   attempts: attempts, lastError: nil, status: nil, responseBody: nil, state: .pending,
                   createdAt: Date(timeIntervalSince1970: 0), notBefore: nil)
    }

    @Test func aResentCreateOnABackendThatCannotReplayItRefreshesItsCollectionOncePerFlush() {
        let refreshes: (String) -> Bool = { $0 == "tasks" }
        let fresh = [Self.entry(1, "tasks", .create, attempts: 0), Self.entry(2, "tasks", .update, attempts: 3)]
        #expect(LostAnswerRule.collectionToRefresh(before: fresh, refreshes: refreshes, refreshed: []) == nil)
        let resent = fresh + [Self.entry(3, "tasks", .create, attempts: 1)]
        #expect(LostAnswerRule.collectionToRefresh(before: resent, refreshes: refreshes, refreshed: []) == "tasks")
        #expect(LostAnswerRule.collectionToRefresh(before: resent, refreshes: refreshes, refreshed: ["tasks"]) == nil)
        let elsewhere = [Self.entry(4, "notes", .create, attempts: 2)]
        #expect(LostAnswerRule.collectionToRefresh(before: elsewhere, refreshes: refreshes, refreshed: []) == nil)
    }

    @Test func theRESTBackendSaysWhenItSweepsAndWhenItRefreshesBeforeAResend() throws {
        var tasks = RESTResource(path: "/tasks/")
        let url = URL(string: "http://127.0.0.1:9")!
        #expect(!RESTBackend(configuration: .init(baseURL: url, resources: ["tasks": tasks])).traits(of: "tasks").refreshesBeforeResendingCreates)
        #expect(RESTBackend(configuration: .init(baseURL: url, resources: ["tasks": tasks], idempotencyHeader: nil))
            .traits(of: "tasks").refreshesBeforeResendingCreates)
        tasks.lostCreates = .refresh
        tasks.pull.deletions = .sweep
        let backend = RESTBackend(configuration: .init(baseURL: url, resources: ["tasks": tasks]))
        #expect(backend.traits(of: "tasks").refreshesBeforeResendingCreates && backend.traits(of: "tasks").sweepsDeletions)
        tasks.createLookupParameter = "key"
        #expect(!RESTBackend(configuration: .init(baseURL: url, resources: ["tasks": tasks])).traits(of: "tasks").refreshesBeforeResendingCreates)
    }
}
