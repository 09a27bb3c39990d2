import Foundation
@testable import OfflineStore
import OfflineStoreTesting
import Testing

extension Models {
    @Suite("Typed conflicts")
    struct ModelConflictTests {
        /// A synced todo edited locally and, differently, on the server; the conflict is kept.
        func makeConflict(_ store: ObjectStore, _ backend: InMemoryBackend) async throws -> ModelConflict<Todo> {
            let todos = store.collection(Todo.self)
            try await todos.save(Todo(id: "a", title: "Paint", due: date(1_800_000_000)))
            _ = try await store.sync()
            _ = backend.put(collection: "todos", id: "a",
                            record: ["title": "Paint the fence", "done": false, "due": "2027-01-16T08:00:00.000Z", "color": "red"])
            try await todos.save(Todo(id: "a", title: "Paint it red", done: true, due: date(1_800_000_000)))
            let report = try await store.sync()
            #expect(report.conflicts == 1)
            return try #require(try todos.conflicts().first)
        }

        @Test func copiesAreDecodedAndChangesListedByField() async throws {
            try await withTodoStore { store, backend in
                let conflict = try await makeConflict(store, backend)
                #expect(conflict.id == "a")
                #expect(conflict.base == Todo(id: "a", title: "Paint", due: date(1_800_000_000)))
                #expect(conflict.local == Todo(id: "a", title: "Paint it red", done: true, due: date(1_800_000_000)))
                #expect(conflict.server == Todo(id: "a", title: "Paint the fence", due: date(1_800_000_000 + 86_400)))
                #expect(conflict.undecodable.isEmpty)
                #expect(conflict.changes.map(\.field) == ["color", "done", "due", "title"])
                let title = try #require(try conflict.change(of: \.title))
                #expect(title.isConflicting && title.local == "Paint it red" && title.server == "Paint the fence")
                let done = try #require(try conflict.change(of: \.done))
                #expect(done.changedLocally && !done.changedOnServer && !done.isConflicting)
                let due = try #require(try conflict.change(of: \.due))
                #expect(!due.changedLocally && due.changedOnServer)
                #expect(conflict.conflictingChanges.map(\.field) == ["title"])
            }
        }

        @Test func resolvedFieldByField() async throws {
            try await withTodoStore { store, backend in
                let conflict = try await makeConflict(store, backend)
                let todos = store.collection(Todo.self)
                // Title from the server; done (local only) and due (server only) merge by themselves.
                let merged = try conflict.merged(choosing: [\.title: .server])
                #expect(merged == Todo(id: "a", title: "Paint the fence", done: true, due: date(1_800_000_000 + 86_400)))
                try todos.resolve(conflict, with: merged)
                #expect(try todos.status(of: "a") == .pending)
                _ = try await store.sync()

                #expect(try todos.conflicts().isEmpty)
                #expect(try todos.status(of: "a") == .synced)
                let server = try #require(backend.serverRecord(collection: "todos", id: "a")?.record)
                #expect(server == ["id": "a", "title": "Paint the fence", "done": true, "due": "2027-01-16T08:00:00.000Z", "color": "red"])
            }
        }

        @Test func keepLocalAndKeepServer() async throws {
            try await withTodoStore { store, backend in
                let todos = store.collection(Todo.self)
                let conflict = try await makeConflict(store, backend)
                try todos.resolve(conflict, with: .keepServer)
                #expect(try todos.find("a")?.title == "Paint the fence")
                #expect(try todos.status(of: "a") == .synced)
            }
            try await withTodoStore { store, backend in
                let todos = store.collection(Todo.self)
                let conflict = try await makeConflict(store, backend)
                try todos.resolve(conflict, with: .keepLocal)
                _ = try await store.sync()
                #expect(backend.serverRecord(collection: "todos", id: "a")?.record["title"] == "Paint it red")
            }
        }

        @Test func aTypedCustomPolicyDecidesDuringTheSync() async throws {
            let policy = ConflictPolicy.custom(for: Todo.self) { conflict in
                (try? conflict.merged(choosing: [\.title: .server], otherwise: .local)).map { .model($0) } ?? .preserve
            }
            try await withTodoStore(conflictPolicy: policy) { store, backend in
                let todos = store.collection(Todo.self)
                try await todos.save(Todo(id: "a", title: "Paint"))
                _ = try await store.sync()
                _ = backend.put(collection: "todos", id: "a", record: ["title": "Paint the fence", "done": false, "color": "red"])
                try await todos.save(Todo(id: "a", title: "Paint it red", done: true))
                _ = try await store.sync()
                _ = try await store.sync()

                #expect(try todos.conflicts().isEmpty)
                #expect(try todos.find("a") == Todo(id: "a", title: "Paint the fence", done: true))
                let server = try #require(backend.serverRecord(collection: "todos", id: "a")?.record)
                #expect(server == ["id": "a", "title": "Paint the fence", "done": true, "color": "red"])
            }
        }

        @Test func mergePolicySettlesDisjointFieldChangesAlone() async throws {
            try await withTodoStore(conflictPolicy: .merge) { store, backend in
                let todos = store.collection(Todo.self)
                try await todos.save(Todo(id: "a", title: "Paint"))
                _ = try await store.sync()
                _ = backend.put(collection: "todos", id: "a", record: ["title": "Paint the fence", "done": false])
                try await todos.save(Todo(id: "a", title: "Paint", done: true))
                let report = try await store.sync()
                #expect(report.conflicts <= 1)
                #expect(try todos.conflicts().isEmpty)
                #expect(try todos.find("a") == Todo(id: "a", title: "Paint the fence", done: true))
            }
        }
    }
}
