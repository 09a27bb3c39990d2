import Foundation
import OfflineStore
import Testing

/// The REST false conflicts of the kill -9 runs (Docs/Reliability.md): a write whose answer
/// was lost comes back by refresh with timestamps Rails wrote itself; it is still our own
/// write, so a later local edit does not conflict with it.
@Suite("REST: own writes coming back with server-written fields")
struct RESTLostAnswerTests {
    @Test(.liveServer) func anUpdateWhoseAnswerWasLostIsNoConflict() async throws {
        let wire = RailsServer.wire()
        let deferred = ObjectStore.Configuration.with { $0.writeMode = .deferred }
        try await withTemporaryStore(configuration: deferred, backend: try RailsServer.backend(transport: wire),
                                     collections: [CollectionDescriptor("customers")]) { store in
            let customers = store.collection("customers")
            let name = RailsServer.uniqueName("own")
            _ = try await customers.create(["name": .string(name), "email": "a@x.invalid"])
            try await store.sync()
            let id = try #require(try customers.findFirst(where: .equal("name", .string(name)))?["id"]?.stringValue)
            _ = try await customers.patch(id, ["email": "b@x.invalid"])
            wire.inject(.lostResponse)  // Rails applies the update (a new updated_at); the answer is lost
            await expectStoreError(.timeout) { try await store.flush() }
            _ = try await customers.patch(id, ["email": "c@x.invalid"])  // a later edit, in an entry of its own
            let refreshed = try await store.refresh(collections: ["customers"])
            #expect(refreshed.conflictsDetected == 0)
            let report = try await store.sync()
            #expect(report.conflictsDetected == 0 && report.conflicts == 0 && report.pending == 0)
            let server = try await RailsServer.request("GET", "/customers/\(id).json")
            #expect(server.json?["email"] == "c@x.invalid")
        }
    }
}
