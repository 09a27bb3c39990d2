import Foundation
import OfflineStore
import Testing

/// A customer of the REST test app (Rails 6.1: server-assigned integer ids, validations).
struct Customer: SyncModel, Equatable {
    static let collectionName = "customers"
    var id: String
    var name: String
    var email: String?
}

/// The typed API against the real Rails app (`RAILS_URL`, started by scripts/test; the
/// tests fail, never skip, without it).
extension Models {
    @Suite("Typed models on REST (Rails)", .timeLimit(.minutes(5)))
    struct ModelRESTTests {
        let deferred = ObjectStore.Configuration.with { $0.writeMode = .deferred }

        @Test(.liveServer) func typedCustomersGetServerIDsAndQueries() async throws {
            let name = RailsServer.uniqueName("Ada")
            try await withTemporaryStore(configuration: deferred, backend: try RailsServer.backend()) { store in
                try store.register(Customer.self)
                let customers = store.collection(Customer.self)
                let temporary = try await customers.save(Customer(id: UUID().uuidString.lowercased(), name: name, email: "ada@example.org"))
                #expect(try customers.status(of: temporary.id) == .pending)

                let report = try await store.flush()
                #expect(report.pushed == 1)
                let realID = try store.serverID(for: temporary.id, in: "customers")
                #expect(Int(realID) != nil)
                #expect(try customers.find(temporary.id) == nil)
                let saved = try #require(try customers.find(realID))
                #expect(saved == Customer(id: realID, name: name, email: "ada@example.org"))
                #expect(try customers.status(of: realID) == .synced)
                #expect(try customers.findAll(where: \.name == name).map(\.id) == [realID])

                // Fields the server adds and the model does not know survive a typed save.
                let serverFields = Set(try #require(try customers.json.find(realID)?.objectValue).keys)
                var renamed = saved
                renamed.name = name + " L."
                try await customers.save(renamed)
                #expect(Set(try #require(try customers.json.find(realID)?.objectValue).keys) == serverFields)
                _ = try await store.flush()
                let onServer = try await RailsServer.request("GET", "/customers/\(realID).json")
                #expect(onServer.json?["name"]?.stringValue == name + " L.")
            }
        }

        @Test(.liveServer) func rejectedTypedEditsCarryTheModelAndTheServersMessages() async throws {
            try await withTemporaryStore(configuration: deferred, backend: try RailsServer.backend()) { store in
                try store.register(Customer.self)
                let customers = store.collection(Customer.self)
                let bad = try await customers.save(Customer(id: UUID().uuidString.lowercased(), name: "", email: "nope"))
                let report = try await store.flush()
                #expect(report.failed == 1)

                let failed = try #require(try customers.failedEntries().first)
                #expect(failed.id == bad.id && failed.model == bad)
                #expect(failed.entry.status == 422)
                #expect(try failed.messages(for: \.name) == ["can't be blank"])
                #expect(try failed.messages(for: \.email) == ["is not an email address"])
                #expect(try customers.status(of: bad.id) == .failed)

                var fixed = bad
                fixed.name = RailsServer.uniqueName("Grace")
                fixed.email = "grace@example.org"
                try await customers.save(fixed)
                try customers.retry(failed)
                let retried = try await store.flush()
                #expect(retried.failed == 0)
                #expect(try customers.failedEntries().isEmpty)
                let realID = try store.serverID(for: bad.id, in: "customers")
                #expect(try customers.find(realID)?.name == fixed.name)
            }
        }
    }
}
