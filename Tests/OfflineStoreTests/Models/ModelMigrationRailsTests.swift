import Foundation
import OfflineStore
import Testing

/// Release 1 of a customer model, without the email the Rails app's table has.
enum RailsRelease1 {
    struct Customer: SyncModel, Equatable {
        static let collectionName = "customers"
        var id: String
        var name: String
    }
}

/// Release 2: the email, with a default for records that have none (the server sends null).
enum RailsRelease2 {
    struct Customer: SyncModel, Equatable {
        static let collectionName = "customers"
        static let schemaVersion = 2
        static let migrations: [ModelMigration] = [.addField("email", default: "", in: 2)]
        var id: String
        var name: String
        var email: String
    }
}

/// A field added with a default, against the real Rails app (a fixed server schema): stored
/// copies and records written later by a release-1 client (fetched from the server) read with
/// the default, queries find them, reads push nothing, and queued release-1 edits go out after
/// the upgrade.
extension Models {
    @Suite("Model evolution on REST (Rails)", .timeLimit(.minutes(5)))
    struct ModelMigrationRailsTests {
        let deferred = ObjectStore.Configuration.with { $0.writeMode = .deferred }

        /// Creates a customer as a release-1 client elsewhere would: a name, no email.
        static func createElsewhere(_ name: String) async throws -> (id: String, record: JSONValue) {
            let created = try await RailsServer.request("POST", "/customers.json", ["customer": ["name": .string(name)]])
            let record = try #require(created.json)
            return (try #require(record["id"]?.intValue.map(String.init)), record)
        }

        @Test(.liveServer) func aFieldAddedWithADefaultReadsQueriesAndSyncs() async throws {
            try await withTemporaryDirectory { directory in
                let path = directory.path("store.sqlite")
                let (readID, readRecord) = try await Self.createElsewhere(RailsServer.uniqueName("Read"))
                let queuedName = RailsServer.uniqueName("Queued")
                do {
                    let store = try ObjectStore(path: path, configuration: deferred, backend: try RailsServer.backend())
                    try store.register(RailsRelease1.Customer.self)
                    // Fetched, not refreshed: the suite's customers table is shared and large.
                    _ = try await store.collection(RailsRelease1.Customer.self).json.fetch(readID, policy: .fromService)
                    #expect(try store.collection(RailsRelease1.Customer.self).find(readID)?.name == readRecord["name"]?.stringValue)
                    try await store.collection(RailsRelease1.Customer.self).save(.init(id: UUID().uuidString.lowercased(), name: queuedName))
                    try store.close()
                }

                let store = try ObjectStore(path: path, configuration: deferred, backend: try RailsServer.backend())
                defer { try? store.close() }
                try store.register(RailsRelease2.Customer.self)
                let customers = store.collection(RailsRelease2.Customer.self)
                #expect(try customers.find(readID) == RailsRelease2.Customer(id: readID, name: readRecord["name"]?.stringValue ?? "", email: ""))
                #expect(try customers.findAll(where: \.email == "" && \.id == readID).count == 1)

                let report = try await store.flush()
                #expect(report.pushed == 1, "only the queued release-1 create: \(report)")
                let queuedID = try #require(try customers.findFirst(where: \.name == queuedName)?.id)
                #expect(try await RailsServer.request("GET", "/customers/\(queuedID).json").json?["email"] == "")
                // Only read: the server copy is as the other client left it.
                let server = try #require(try await RailsServer.request("GET", "/customers/\(readID).json").json)
                #expect(server["email"] == .null && server["lock_version"] == readRecord["lock_version"]
                        && server["updated_at"] == readRecord["updated_at"])

                // A release-1 client writes another one afterwards: it reads with the default.
                let (laterID, _) = try await Self.createElsewhere(RailsServer.uniqueName("Later"))
                _ = try await customers.json.fetch(laterID, policy: .fromService)
                #expect(try customers.find(laterID)?.email == "")
                #expect(try customers.findAll(where: \.email == "" && \.id == laterID).map(\.id) == [laterID])
            }
        }
    }
}
