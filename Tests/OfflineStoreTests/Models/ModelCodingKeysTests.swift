import Foundation
import OfflineStore
import Testing

/// An errand whose stored names differ from its properties (`CodingKeys`, nothing else
/// declared), with a nested place.
struct Errand: SyncModel, Equatable {
    static let collectionName = "errands"
    struct Place: Codable, Sendable, Equatable { var city: String }

    var id: String
    var title: String
    var dueDate: Date?
    var isDone = false
    var place: Place

    enum CodingKeys: String, CodingKey {
        case id, title
        case dueDate = "due_date"
        case isDone = "done"
        case place = "where"
    }
}

/// A customer of the REST test app under other property names: `fullName` is the
/// resource's `name`, `contact` its `email`.
struct Client: SyncModel, Equatable {
    static let collectionName = "customers"
    var id: String
    var fullName: String
    var contact: String?

    enum CodingKeys: String, CodingKey {
        case id
        case fullName = "name"
        case contact = "email"
    }
}

/// Models with `CodingKeys` renames are queried by key path with nothing else declared, on
/// both backends: the query runs on the stored names the server also holds.
extension Models {
    @Suite("Typed models with CodingKeys renames", .timeLimit(.minutes(5)))
    struct ModelCodingKeysTests {
        @Test(.liveServer) func renamedAndNestedFieldsAreQueriedAfterASyncThroughKinto() async throws {
            let bucket = KintoServer.uniqueName("b")
            try await withTemporaryDirectory { directory in
                let writer = try ObjectStore(path: directory.path("writer.sqlite"), backend: try KintoServer.backend(bucket: bucket))
                defer { try? writer.close() }
                try writer.register(Errand.self)
                let soon = date(1_800_000_000)
                try await writer.collection(Errand.self).save(Errand(id: "post", title: "Post", dueDate: soon, place: .init(city: "Lyon")))
                try await writer.collection(Errand.self).save(Errand(id: "bank", title: "Bank", isDone: true, place: .init(city: "Oslo")))
                _ = try await writer.sync()

                let reader = try ObjectStore(path: directory.path("reader.sqlite"), backend: try KintoServer.backend(bucket: bucket))
                defer { try? reader.close() }
                try reader.register(Errand.self)
                _ = try await reader.sync()
                let errands = reader.collection(Errand.self)
                #expect(try errands.json.find("post")?["due_date"] == "2027-01-15T08:00:00.000Z", "Kinto holds the stored names")
                #expect(try errands.findAll(where: \.dueDate < soon.addingTimeInterval(1)).map(\.id) == ["post"])
                #expect(try errands.findAll(where: \.isDone == true).map(\.id) == ["bank"])
                #expect(try errands.findAll(where: \.place.city == "Oslo").map(\.id) == ["bank"])
                #expect(try errands.findAll(orderBy: [.ascending(\.place.city)]).map(\.id) == ["post", "bank"])
            }
        }

        @Test(.liveServer) func renamedFieldsAreQueriedOnTheRailsResource() async throws {
            let name = RailsServer.uniqueName("Hedy")
            let deferred = ObjectStore.Configuration.with { $0.writeMode = .deferred }
            try await withTemporaryStore(configuration: deferred, backend: try RailsServer.backend()) { store in
                try store.register(Client.self)
                let clients = store.collection(Client.self)
                let local = try await clients.save(Client(id: UUID().uuidString.lowercased(), fullName: name, contact: "hedy@example.org"))
                #expect(try clients.findAll(where: \.fullName == name).map(\.id) == [local.id])
                _ = try await store.flush()
                let realID = try store.serverID(for: local.id, in: "customers")
                #expect(try clients.findAll(where: \.fullName == name && \.contact == "hedy@example.org").map(\.id) == [realID])
                let onServer = try await RailsServer.request("GET", "/customers/\(realID).json")
                #expect(onServer.json?["name"]?.stringValue == name)
            }
        }
    }
}
