import Foundation
import Testing
@testable import OfflineStore

/// The OData backend through `ObjectStore` (a real SQLite file) against the fixture in both
/// modes (Docs/ODataFacts.md): flush and refresh from another store, conflicts with both
/// copies, server-assigned keys with references, a read-only user, lost answers.
@Suite("OData backend on the fixture", .timeLimit(.minutes(5)))
struct ODataBackendLiveTests {
    let deferred = ObjectStore.Configuration.with { $0.writeMode = .deferred }
    static let tasks = [CollectionDescriptor("Tasks")]

    @Test(.liveServer, arguments: ODataServer.Mode.allCases)
    func createUpdateDeleteReachAnotherStore(_ mode: ODataServer.Mode) async throws {
        let title = ODataServer.uniqueTitle("cud")
        try await withTemporaryStore(configuration: deferred, backend: try ODataServer.backend(mode), collections: Self.tasks) { a in
            try await withTemporaryStore(configuration: deferred, backend: try ODataServer.backend(mode), collections: Self.tasks) { b in
                let created = try await a.collection("Tasks").create(["Title": .string(title), "Priority": 2])
                let id = try #require(created["id"]?.stringValue)
                let first = try await a.sync()
                #expect(first.pushed == 1 && first.pending == 0 && first.failed == 0)
                #expect(try await ODataServer.tasks(mode, titled: title).first?["ID"]?.stringValue == id)

                try await b.refresh()
                #expect(try b.collection("Tasks").find(id)?["Title"] == .string(title))
                #expect(try b.collection("Tasks").find(id)?["ID"] == nil, "the key is the object's id, not a field")

                _ = try await a.collection("Tasks").patch(id, ["Done": true])
                #expect(try await a.flush().pushed == 1)
                try await b.refresh()
                #expect(try b.collection("Tasks").find(id)?["Done"] == true)

                try await a.collection("Tasks").destroy(id)
                #expect(try await a.flush().pushed == 1)
                #expect(try await ODataServer.tasks(mode, titled: title).isEmpty)
                // Delta: an @removed entry; plain: the full pull no longer lists it (swept).
                try await b.refresh()
                #expect(try b.collection("Tasks").find(id) == nil)
            }
        }
    }

    @Test(.liveServer, arguments: ODataServer.Mode.allCases)
    func aStaleETagIsAConflictWithBothCopies(_ mode: ODataServer.Mode) async throws {
        try await withTemporaryStore(configuration: deferred, backend: try ODataServer.backend(mode), collections: Self.tasks) { store in
            let created = try await store.collection("Tasks").create(["Title": .string(ODataServer.uniqueTitle("old"))])
            let id = try #require(created["id"]?.stringValue)
            try await store.flush()
            let other = try await ODataServer.request(mode, "PATCH", "Tasks(\(id))", ["Notes": "theirs"], headers: [("If-Match", "*")])
            #expect(other.status == 204 || other.status == 200)

            _ = try await store.collection("Tasks").patch(id, ["Notes": "mine"])
            let report = try await store.flush()

            #expect(report.conflictsDetected == 1 && report.conflicts == 1)
            let conflict = try #require(try store.conflicts(in: "Tasks").first { $0.id == id })
            #expect(conflict.local?["Notes"] == "mine")
            #expect(conflict.server?["Notes"] == "theirs")
            try store.resolve("Tasks", id: id, with: .keepLocal)
            try await store.flush()
            let after = try await ODataServer.request(mode, "GET", "Tasks(\(id))")
            #expect(after.json?["Notes"] == "mine")
        }
    }

    @Test(.liveServer, arguments: ODataServer.Mode.allCases)
    func serverAssignedKeysReachTheReferences(_ mode: ODataServer.Mode) async throws {
        let collections = [CollectionDescriptor("Customers"), CollectionDescriptor("Orders")]
        try await withTemporaryStore(configuration: deferred, backend: try ODataServer.backend(mode), collections: collections) { store in
            let customer = try await store.collection("Customers").create(["Name": .string(ODataServer.uniqueTitle("ada"))])
            let temporary = try #require(customer["id"]?.stringValue)
            let order = try await store.collection("Orders").create(["CustomerID": .string(temporary), "Product": "pen", "Quantity": 2])
            let orderTemporary = try #require(order["id"]?.stringValue)

            let report = try await store.flush()

            #expect(report.pushed == 2 && report.pending == 0 && report.failed == 0)
            let customerID = try store.serverID(for: temporary, in: "Customers")
            let orderID = try store.serverID(for: orderTemporary, in: "Orders")
            #expect(Int(customerID) != nil && Int(orderID) != nil)
            let local = try #require(try store.collection("Orders").object(orderID))
            #expect(local.state == .synced && local.persistent?["CustomerID"] == .string(customerID))
            let onServer = try await ODataServer.request(mode, "GET", "Orders(\(orderID))")
            #expect(onServer.json?["CustomerID"]?.intValue == Int64(customerID))
        }
    }

    @Test(.liveServer, arguments: ODataServer.Mode.allCases)
    func aReadOnlyUsersEditIsAForbiddenFailedEntry(_ mode: ODataServer.Mode) async throws {
        let title = ODataServer.uniqueTitle("ro")
        try await withTemporaryStore(configuration: deferred, backend: try ODataServer.backend(mode, user: "reader"),
                                     collections: Self.tasks) { store in
            _ = try await store.collection("Tasks").create(["Title": .string(title)])
            let report = try await store.flush()
            #expect(report.failed == 1 && report.pushed == 0)
            #expect(try store.failedEntries().first?.failure == .forbidden)
            #expect(try await ODataServer.tasks(mode, titled: title).isEmpty)
        }
    }

    @Test(.liveServer, arguments: ODataServer.Mode.allCases)
    func lostAnswersToACreateAndADeleteLeaveNoDuplicateNoFailureNoConflict(_ mode: ODataServer.Mode) async throws {
        let wire = WireFaultTransport(base: URLSessionTransport(followingRedirects: false)) { $0.method != "GET" }
        let title = ODataServer.uniqueTitle("lost")
        try await withTemporaryStore(configuration: deferred, backend: try ODataServer.backend(mode, transport: wire),
                                     collections: Self.tasks) { store in
            let created = try await store.collection("Tasks").create(["Title": .string(title)])
            let id = try #require(created["id"]?.stringValue)
            wire.inject(.lostResponse)  // the server makes the entity; its answer is lost
            await expectStoreError(.timeout) { try await store.flush() }
            let resent = try await store.flush()  // 409 (delta) or 500 (plain), read back: ours
            #expect(resent.pushed == 1 && resent.failed == 0 && resent.conflicts == 0 && resent.pending == 0)
            #expect(try await ODataServer.tasks(mode, titled: title).count == 1)

            try await store.collection("Tasks").destroy(id)
            wire.inject(.lostResponse)  // the server deletes it; the answer is lost
            await expectStoreError(.timeout) { try await store.flush() }
            let deleted = try await store.flush()  // 404 (delta) or 412 (plain), read back: gone
            #expect(deleted.failed == 0 && deleted.conflicts == 0 && deleted.pending == 0)
            #expect(try store.failedEntries().isEmpty && store.conflicts(in: "Tasks").isEmpty)
            #expect(try await ODataServer.tasks(mode, titled: title).isEmpty)
        }
    }

    @Test(.liveServer, arguments: ODataServer.Mode.allCases)
    func aBatchOfWritesIsAnsweredOneByOne(_ mode: ODataServer.Mode) async throws {
        let title = ODataServer.uniqueTitle("batch")
        let wire = ODataHookTransport(before: { _ in false }, run: {})
        try await withTemporaryStore(configuration: deferred, backend: try ODataServer.backend(mode, transport: wire),
                                     collections: Self.tasks) { store in
            var ids: [String] = []
            for index in 0..<4 {
                ids.append(try #require(try await store.collection("Tasks").create(["Title": .string(title), "Priority": .int(Int64(index))])["id"]?.stringValue))
            }
            let report = try await store.flush()
            #expect(report.pushed == 4 && report.pending == 0)
            #expect(wire.requestLines.contains { $0.hasPrefix("POST") && $0.hasSuffix("/$batch") })
            #expect(try await ODataServer.tasks(mode, titled: title).count == 4)
            for id in ids { #expect(try store.collection("Tasks").object(id)?.state == .synced) }
        }
    }
}
