import Foundation
import OfflineStore
import OfflineStoreTesting
import Testing

/// A migration that throws for some records, and defaults declared once on the model
/// (Docs/Models.md, "Evolving a model").
extension Models {
    @Suite("Model evolution: failures and defaults")
    struct ModelMigrationFailureTests {
        struct Refused: Error {}

        /// Release 2 of a model whose transform refuses one title.
        struct Todo: SyncModel, Equatable {
            static let collectionName = "todos"
            static let schemaVersion = 2
            static let migrations: [ModelMigration] = [
                .renameField("name", to: "title", in: 2),
                .transform(in: 2) { record in if record["title"] == "poison" { throw Refused() } },
            ]
            var id: String
            var title: String
        }

        /// A model that gained a field with a default: records without it read with it.
        struct Ticket: SyncModel, Equatable {
            enum Status: String, Codable, Sendable, CaseIterable, ModelQueryValue { case open, closed }
            static let collectionName = "tickets"
            static let schemaVersion = 2
            static let migrations: [ModelMigration] = [.addField("status", default: "open", in: 2)]
            var id: String
            var title: String
            var status: Status = .open
        }

        static func expectMigrationError(_ record: UndecodableRecord, id: String) {
            guard case .dataCorrupted(let context) = record.error, let failure = context.underlyingError as? MigrationFailure else {
                Issue.record("not the migration's error: \(record.error)"); return
            }
            #expect(failure.id == id && failure.version == 2 && failure.underlying is Refused)
            #expect(record.description.contains("the migration to version 2 failed"))
        }

        @Test func aThrowingMigrationLeavesThatRecordUndecodableAndTheOthersGoOn() async throws {
            let backend = InMemoryBackend()
            try await withTemporaryDirectory { directory in
                let path = directory.path("store.sqlite")
                do {
                    let store = try ObjectStore(path: path, backend: backend)
                    try store.register(Release1.Todo.self)
                    _ = backend.put(collection: "todos", id: "ok", record: ["name": "fine", "done": false])
                    _ = backend.put(collection: "todos", id: "bad", record: ["name": "poison", "done": false])
                    _ = try await store.sync()
                    try store.close()
                }
                let store = try ObjectStore(path: path, backend: backend)
                defer { try? store.close() }
                try store.register(Todo.self)
                #expect(try store.descriptor(of: "todos").schemaVersion == 2)
                let todos = store.collection(Todo.self)
                let all = try todos.findAll()
                #expect(all.map(\.id) == ["ok"] && all.undecodable.map(\.id) == ["bad"])
                Self.expectMigrationError(try #require(all.undecodable.first), id: "bad")
                #expect(try todos.json.find("bad") == ["id": "bad", "name": "poison", "done": false])   // kept as it was

                // The same for a record that arrives later.
                _ = backend.put(collection: "todos", id: "bad2", record: ["name": "poison"])
                _ = backend.put(collection: "todos", id: "ok2", record: ["name": "fine too"])
                _ = try await store.sync()
                #expect(try todos.find("ok2") == Todo(id: "ok2", title: "fine too"))
                do {
                    _ = try todos.find("bad2")
                    Issue.record("bad2 decoded")
                } catch let error as OfflineStoreError {
                    #expect(error.code == .undecodable)
                    Self.expectMigrationError(try #require(error.undecodableRecord), id: "bad2")
                }
                #expect(try todos.count() == 2, "ok and ok2: the typed count counts what findAll returns")
                #expect(try todos.json.count() == 4, "the JSON count counts the undecodable bad and bad2 too")

                // Fixed on the server, it reads.
                _ = backend.put(collection: "todos", id: "bad2", record: ["name": "antidote"])
                _ = try await store.sync()
                #expect(try todos.find("bad2")?.title == "antidote")
            }
        }

        @Test func aRecordWithoutAFieldReadsWithTheModelsDefault() async throws {
            let backend = InMemoryBackend()
            try await withTemporaryStore(backend: backend) { store in
                try store.register(Ticket.self)
                _ = backend.put(collection: "tickets", id: "t1", record: ["title": "from another client"])
                _ = backend.put(collection: "tickets", id: "t2", record: ["title": "closed one", "status": "closed"])
                _ = try await store.sync()
                let tickets = store.collection(Ticket.self)
                #expect(try tickets.find("t1") == Ticket(id: "t1", title: "from another client", status: .open))
                #expect(try tickets.findAll(where: \.status == .open).map(\.id) == ["t1"])
                #expect(try tickets.find("t2")?.status == .closed)
                #expect(backend.serverRecord(collection: "tickets", id: "t1")?.record["status"] == nil)   // read, not pushed
                #expect(try store.queueCount() == 0)
            }
        }
    }
}
