import Foundation
import Testing
@testable import OfflineStore

/// A create whose answer was lost: edits made before the resend (Rails replays the first
/// create); a refresh that recognises the record it made; and, when it cannot (another
/// client changed the record), a pulled second copy with edits on either copy (bug 5 of
/// Docs/Reliability.md). The resent create's answer folds the temporary object into the
/// pulled one, and no edit is lost.
@Suite("REST: creates whose answer was lost")
struct RESTCreateMergeTests {
    let collections = [CollectionDescriptor("customers"), CollectionDescriptor("orders"), CollectionDescriptor("products")]
    let deferred = ObjectStore.Configuration.with { $0.writeMode = .deferred }

    /// Runs `body` with a deferred store on the Rails app, through a wire that can lose answers.
    func withRailsStore(_ body: (ObjectStore, WireFaultTransport) async throws -> Void) async throws {
        let wire = RailsServer.wire()
        try await withTemporaryStore(configuration: deferred, backend: try RailsServer.backend(transport: wire),
                                     collections: collections) { store in try await body(store, wire) }
    }

    /// Creates a customer offline and loses the create's answer; returns the temporary id
    /// and the id Rails gave the record.
    func lostCreate(_ store: ObjectStore, wire: WireFaultTransport, name: String) async throws -> (temporary: String, id: String) {
        let created = try await store.collection("customers").create(["name": .string(name), "email": "a@x.invalid"])
        let temporary = try #require(created["id"]?.stringValue)
        wire.inject(.lostResponse)
        await expectStoreError(.timeout) { try await store.flush() }
        let all = try await RailsServer.request("GET", "/customers.json?per_page=\(RailsServer.maxPerPage)")
        let record = try #require(all.json?.arrayValue?.first { $0["name"] == .string(name) })
        return (temporary, try #require(record["id"]?.intValue.map(String.init)))
    }

    /// A lost create, another client's edit of the record it made (so a refresh cannot tell
    /// the record for the create's result), and a refresh; returns the temporary id and the
    /// id of the pulled copy.
    func twoCopies(_ store: ObjectStore, wire: WireFaultTransport, name: String) async throws -> (temporary: String, pulled: String) {
        let (temporary, id) = try await lostCreate(store, wire: wire, name: name)
        #expect(try await RailsServer.request("PATCH", "/customers/\(id).json", ["customer": ["email": "other@x.invalid"]]).status == 200)
        try await store.refresh(collections: ["customers"])
        let copies = try store.collection("customers").findAll().filter { $0["name"] == .string(name) }
        let ids = Set(copies.compactMap { $0["id"]?.stringValue })
        #expect(ids.count == 2 && ids.contains(temporary), "the refresh shows the pulled copy next to the temporary one")
        return (temporary, try #require(ids.first { $0 != temporary }))
    }

    @Test(.liveServer) func aRefreshTakesTheRecordAnUnansweredCreateMadeAsItsAnswer() async throws {
        try await withRailsStore { store, wire in
            let name = RailsServer.uniqueName("adopt")
            let (temporary, id) = try await lostCreate(store, wire: wire, name: name)
            try await store.collection("customers").patch(temporary, ["email": "later@x.invalid"])

            try await store.refresh(collections: ["customers"])

            let copies = try store.collection("customers").findAll().filter { $0["name"] == .string(name) }
            #expect(copies.map { $0["id"] } == [.string(id)], "one object, already under the server's id")
            #expect(try store.serverID(for: temporary, in: "customers") == id)
            #expect(copies.first?["email"] == "later@x.invalid", "the edit made since stays, queued")
            #expect(try store.queueEntries().map(\.kind) == [.update])
            _ = try await store.flush()
            #expect(wire.requestLines.filter { $0.hasPrefix("POST") }.count == 1, "the create was not sent again")
            #expect(try await serverRecords(named: name).first?["email"] == "later@x.invalid")
        }
    }

    /// The server's records named `name`.
    func serverRecords(named name: String) async throws -> [JSONValue] {
        let all = try await RailsServer.request("GET", "/customers.json?per_page=\(RailsServer.maxPerPage)&updated_since=2000-01-01T00:00:00Z")
        return try #require(all.json?.arrayValue).filter { $0["name"] == .string(name) && $0["deleted_at"] == .null }
    }

    @Test(.liveServer) func anEditOfThePulledCopyIsKeptAndTheQueueMovesOn() async throws {
        try await withRailsStore { store, wire in
            let name = RailsServer.uniqueName("merge")
            let (temporary, pulled) = try await twoCopies(store, wire: wire, name: name)
            try await store.collection("customers").patch(pulled, ["email": "edited@x.invalid"])

            let first = try await store.flush()
            #expect(first.pushed >= 1 && first.failed == 0, "the resent create no longer stops the flush")
            #expect(try store.serverID(for: temporary, in: "customers") == pulled)
            #expect(try store.collection("customers").object(temporary) == nil, "one object, under the server's id")
            #expect(try store.collection("customers").find(pulled)?["email"] == "edited@x.invalid")
            _ = try await store.flush()

            #expect(try store.queueCount() == 0)
            let server = try await serverRecords(named: name)
            #expect(server.count == 1 && server.first?["email"] == "edited@x.invalid")
        }
    }

    @Test(.liveServer) func editsOfBothCopiesAreMergedAndTheLaterEditWinsAClash() async throws {
        try await withRailsStore { store, wire in
            let name = RailsServer.uniqueName("merge")
            let (temporary, pulled) = try await twoCopies(store, wire: wire, name: name)
            let customers = store.collection("customers")
            try await customers.patch(temporary, ["email": "first@x.invalid", "name": .string(name + " renamed")])
            try await customers.patch(pulled, ["email": "later@x.invalid"])

            _ = try await store.flush()
            _ = try await store.flush()

            #expect(try store.queueCount() == 0 && store.conflicts().isEmpty)
            #expect(try customers.object(temporary) == nil)
            let merged = try #require(try customers.find(pulled))
            #expect(merged["name"] == .string(name + " renamed"), "a field only the temporary copy changed")
            #expect(merged["email"] == "later@x.invalid", "both changed it: the later edit wins")
            let server = try await serverRecords(named: name + " renamed")
            #expect(server.count == 1 && server.first?["email"] == "later@x.invalid")
            #expect(server.first?["id"]?.intValue.map(String.init) == pulled)
        }
    }

    @Test(.liveServer) func anEditMadeWhileTheCreatesAnswerWasLostReachesTheServer() async throws {
        try await withRailsStore { store, wire in
            let name = RailsServer.uniqueName("replay")
            let (temporary, _) = try await lostCreate(store, wire: wire, name: name)
            try await store.collection("customers").patch(temporary, ["email": "edited@x.invalid"])

            // Rails replays the first create (Idempotency-Key): the edit is queued again and sent, not dropped.
            let report = try await store.flush()

            #expect(report.pushed == 2, "the replayed create, then the edit as an update")
            let id = try store.serverID(for: temporary, in: "customers")
            #expect(try store.collection("customers").find(id)?["email"] == "edited@x.invalid")
            #expect(try store.queueCount() == 0)
            let server = try await serverRecords(named: name)
            #expect(server.count == 1 && server.first?["email"] == "edited@x.invalid")
        }
    }

    /// Creates a customer whose create's answer is lost, then deletes its record as another
    /// client would, before the store learns the id; returns the temporary and server ids.
    func lostCreateDeletedElsewhere(_ store: ObjectStore, wire: WireFaultTransport) async throws -> (temporary: String, id: String) {
        let (temporary, id) = try await lostCreate(store, wire: wire, name: RailsServer.uniqueName("gone"))
        #expect(try await RailsServer.request("DELETE", "/customers/\(id).json").status == 204)
        return (temporary, id)
    }

    @Test(.liveServer, arguments: [false, true])
    func aCreateWhoseRecordWasDeletedMeanwhileIsRemovedOrConflicts(editedSince: Bool) async throws {
        try await withRailsStore { store, wire in
            let customers = store.collection("customers")
            let (temporary, id) = try await lostCreateDeletedElsewhere(store, wire: wire)
            if editedSince { try await customers.patch(temporary, ["email": "kept@x.invalid"]) }

            let report = try await store.flush()  // Rails replays the create: a soft-deleted record

            #expect(try store.serverID(for: temporary, in: "customers") == id)
            if editedSince {
                let conflict = try #require(try store.conflicts().first)
                #expect(report.conflictsDetected == 1)
                #expect(conflict.id == id && conflict.server == nil && conflict.local?["email"] == "kept@x.invalid",
                        "the edit meets the deletion as a conflict, both copies kept")
            } else {
                #expect(report.pushed == 1 && report.conflictsDetected == 0)
                #expect(try customers.object(temporary) == nil && customers.object(id) == nil, "the deletion applies")
                #expect(try store.queueCount() == 0)
            }
        }
    }

    @Test func mergedCopyRules() {
        let base: JSONValue = ["id": "7", "a": 1, "b": 1]
        let temporary: JSONValue = ["id": "7", "a": 2, "b": 1, "c": 3]
        let pulled: JSONValue = ["id": "7", "a": 9, "b": 5]
        #expect(SyncEngine.mergedCopy(base: base, temporary: temporary, pulled: pulled, temporaryIsLater: true)
                == ["id": "7", "a": 2, "b": 5, "c": 3])
        #expect(SyncEngine.mergedCopy(base: base, temporary: temporary, pulled: pulled, temporaryIsLater: false)
                == ["id": "7", "a": 9, "b": 5, "c": 3])
        #expect(SyncEngine.mergedCopy(base: base, temporary: nil, pulled: pulled, temporaryIsLater: true) == nil,
                "a later delete deletes")
        #expect(SyncEngine.mergedCopy(base: base, temporary: nil, pulled: pulled, temporaryIsLater: false) == pulled)
    }
}
