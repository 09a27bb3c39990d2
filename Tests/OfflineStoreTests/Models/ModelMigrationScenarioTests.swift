import Foundation
import OfflineStore
import Testing

/// Release 1 and release 3 of one app's model (Docs/Models.md, "Evolving a model"): `name`
/// became `title` in version 2; `priority` and `tags` came in version 3.
enum Release1 {
    struct Todo: SyncModel, Equatable {
        static let collectionName = "todos"
        var id: String
        var name: String
        var done = false
    }
}

enum Release3 {
    struct Todo: SyncModel, Equatable {
        static let collectionName = "todos"
        static let schemaVersion = 3
        static let migrations: [ModelMigration] = [
            .renameField("name", to: "title", in: 2),
            .addField("priority", default: 0, in: 3),
            .transform(in: 3) { record in
                if record["tags"] == nil { record["tags"] = ["imported"] }
            },
        ]
        var id: String
        var title: String
        var done: Bool
        var priority: Int
        var tags: [String]
    }
}

/// The upgrade from release 1 to release 3 of a store holding synced records, queued edits
/// and a conflict, on the in-memory backend and on a real Kinto: what the app reads and
/// queries, what is pushed, and what the server keeps.
extension Models {
    @Suite("Model evolution: an upgrade 1 → 3", .timeLimit(.minutes(5)))
    struct ModelMigrationScenarioTests {
        static let deferred = ObjectStore.Configuration.with { $0.writeMode = .deferred }

        /// A release-1 store: `a` synced then edited (queued), `b` in a conflict, `c` created
        /// offline (queued), `d` only ever read. Returns the store's path.
        static func releaseOne(on server: any SyncHarness, in directory: TemporaryDirectory) async throws -> String {
            let path = directory.path("store.sqlite")
            let store = try ObjectStore(path: path, configuration: deferred, backend: server.backend)
            try store.register(Release1.Todo.self)
            let todos = store.collection(Release1.Todo.self)
            for (id, name) in [("a", "alpha"), ("b", "beta"), ("d", "delta")] {
                try await server.serverPut("todos", id, ["name": .string(name), "done": false])
            }
            _ = try await store.sync()
            try await todos.save(Release1.Todo(id: "b", name: "beta (mine)"))
            try await server.serverPut("todos", "b", ["name": "beta (theirs)", "done": true])
            let flushed = try await store.flush()
            #expect(flushed.conflicts == 1)
            try await todos.save(Release1.Todo(id: "a", name: "alpha!"))
            try await todos.save(Release1.Todo(id: "c", name: "gamma"))
            try store.close()
            return path
        }

        @Test(arguments: BackendKind.available)
        func anUpgradeMigratesEverythingAndPushesOnlyWhatWasEdited(_ kind: BackendKind) async throws {
            let server = try await Harness.make(kind)
            try await withTemporaryDirectory { directory in try await upgrade(on: server, in: directory) }
        }

        func upgrade(on server: any SyncHarness, in directory: TemporaryDirectory) async throws {
            let path = try await Self.releaseOne(on: server, in: directory)
            let untouched = try await server.serverGet("todos", "d")

            let store = try ObjectStore(path: path, configuration: Self.deferred, backend: server.backend)
            defer { try? store.close() }
            try store.register(Release3.Todo.self)
            #expect(try store.descriptor(of: "todos").schemaVersion == 3)
            let todos = store.collection(Release3.Todo.self)

            // Every copy is in the new shape: what the app reads, the server copies, the conflict.
            #expect(try todos.find("a") == Release3.Todo(id: "a", title: "alpha!", done: false, priority: 0, tags: ["imported"]))
            #expect(try todos.json.persistent("a") == ["id": "a", "title": "alpha", "done": false, "priority": 0, "tags": ["imported"]])
            #expect(try todos.find("d")?.title == "delta")
            let conflict = try #require(try todos.conflicts().first)
            #expect(conflict.base?.title == "beta" && conflict.local?.title == "beta (mine)" && conflict.server?.title == "beta (theirs)")
            #expect(conflict.undecodable.isEmpty)

            // SQLite queries see the new names.
            #expect(try todos.findAll(where: \.title == "gamma").map(\.id) == ["c"])
            #expect(try todos.count(where: \.priority == 0) == 4)
            #expect(try todos.findAll().undecodable.isEmpty)

            // The first sync pushes the queued edits (in the new shape) and nothing else; it
            // raises no conflict of its own.
            let writes = server.writeCount
            let report = try await store.sync()
            #expect(report.pushed == 2 && report.conflictsDetected == 0, "\(report)")
            #expect(server.writeCount - writes == 2)
            let a = try #require(try await server.serverGet("todos", "a"))
            #expect(a["title"] == "alpha!" && a["name"] == nil && a["priority"] == 0 && a["tags"] == ["imported"])
            #expect(try await server.serverGet("todos", "c")?["title"] == "gamma")
            #expect(try await server.serverGet("todos", "d") == untouched)              // only read: never pushed
            #expect(try await server.serverGet("todos", "b")?["name"] == "beta (theirs)")  // the conflict waits for the app

            // Resolving the conflict pushes the new shape.
            try todos.resolve(conflict, with: .keepLocal)
            _ = try await store.sync()
            let b = try #require(try await server.serverGet("todos", "b"))
            #expect(b["title"] == "beta (mine)" && b["name"] == nil)

            // A record a release-1 client writes afterwards reads, and is found, in the new shape.
            try await server.serverPut("todos", "e", ["name": "epsilon", "done": true])
            let later = try await store.sync()
            #expect(later.pushed == 0)
            #expect(try todos.find("e") == Release3.Todo(id: "e", title: "epsilon", done: true, priority: 0, tags: ["imported"]))
            #expect(try todos.findAll(where: \.title == "epsilon" && \.priority == 0).map(\.id) == ["e"])
            #expect(try await server.serverGet("todos", "e")?["name"] == "epsilon")       // the server copy stays as written
            #expect(try todos.json.object("e")?.state == .synced)
        }

        /// An older release on a store a newer one migrated: a typed error, nothing changed.
        @Test(arguments: BackendKind.available)
        func aDowngradeIsRefusedAndChangesNothing(_ kind: BackendKind) async throws {
            let server = try await Harness.make(kind)
            try await withTemporaryDirectory { directory in try await downgrade(on: server, in: directory) }
        }

        func downgrade(on server: any SyncHarness, in directory: TemporaryDirectory) async throws {
            let path = try await Self.releaseOne(on: server, in: directory)
            do {
                let store = try ObjectStore(path: path, configuration: Self.deferred, backend: server.backend)
                try store.register(Release3.Todo.self)
                try store.close()
            }
            let store = try ObjectStore(path: path, configuration: Self.deferred, backend: server.backend)
            defer { try? store.close() }
            let before = try store.collection("todos").findAll()
            let error = #expect(throws: OfflineStoreError.self) { try store.register(Release1.Todo.self) }
            #expect(error?.code == .modelTooNew)
            #expect(error?.message.contains("version 3") == true)
            #expect(try store.descriptor(of: "todos").schemaVersion == 3)
            #expect(try store.collection("todos").findAll() == before)
            #expect(try store.queueCount() == 3)
        }
    }
}
