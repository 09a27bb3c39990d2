import Foundation
@testable import OfflineStore
import OfflineStoreTesting
import Testing

/// Data the model does not fully describe: other clients' fields, records that no longer decode.
extension Models {
    @Suite("Typed models and data they do not describe")
    struct ModelEvolutionTests {
        @Test func unknownFieldsAreKeptAcrossATypedSave() async throws {
            try await withTodoStore { store, backend in
                _ = backend.put(collection: "todos", id: "a",
                                record: ["title": "Paint", "done": false, "color": "red", "labels": ["home"]])
                _ = try await store.sync()
                let todos = store.collection(Todo.self)
                var todo = try #require(try todos.find("a"))
                todo.title = "Paint the fence"
                try await todos.save(todo)

                let local = try #require(try todos.json.find("a"))
                #expect(local == ["id": "a", "title": "Paint the fence", "done": false, "color": "red", "labels": ["home"]])
                _ = try await store.sync()
                let server = try #require(backend.serverRecord(collection: "todos", id: "a")?.record)
                #expect(server["color"] == "red" && server["labels"] == ["home"] && server["title"] == "Paint the fence")
            }
        }

        @Test func aNilOptionalTheModelKnowsIsRemoved() async throws {
            try await withTodoStore { store, _ in
                let todos = store.collection(Todo.self)
                try await todos.save(Todo(id: "a", title: "A", due: date(1_800_000_000)))
                try await todos.save(Todo(id: "a", title: "A", due: nil))
                #expect(try todos.json.find("a")?["due"] == nil)
                #expect(try todos.find("a")?.due == nil)
            }
        }

        @Test func undecodableRecordsAreReportedKeptAndRefreshed() async throws {
            try await withTodoStore { store, backend in
                _ = backend.put(collection: "todos", id: "good", record: ["title": "Fine", "done": false])
                _ = backend.put(collection: "todos", id: "number", record: ["title": 42])        // a number where the model has a string
                _ = backend.put(collection: "todos", id: "missing", record: ["done": true])      // the required title is missing
                _ = try await store.sync()
                let todos = store.collection(Todo.self)

                let all = try todos.findAll()
                #expect(all.map(\.id) == ["good"])
                #expect(all.undecodable.map(\.id) == ["missing", "number"])
                let number = try #require(all.undecodable.first { $0.id == "number" })
                #expect(number.json["title"] == 42)
                guard case .typeMismatch(_, let context) = number.error else { Issue.record("\(number.error)"); return }
                #expect(context.codingPath.map(\.stringValue) == ["title"])
                #expect(number.description.contains("todos/number") && number.description.contains("title"))
                #expect { try todos.find("missing") } throws: { ($0 as? OfflineStoreError)?.undecodableRecord?.id == "missing" }
                #expect(try todos.count() == 1, "the typed count counts what findAll returns")
                #expect(try todos.json.count() == 3, "the JSON count counts every stored object")

                // The JSON API still reads them; a refresh keeps and updates them.
                #expect(try todos.json.find("number")?["title"] == 42)
                _ = backend.put(collection: "todos", id: "number", record: ["title": 43, "done": true])
                _ = try await store.sync()
                #expect(try todos.json.find("number") == ["id": "number", "title": 43, "done": true])
                #expect(try todos.findAll().undecodable.count == 2)

                // Fixed on the server, it decodes again.
                _ = backend.put(collection: "todos", id: "number", record: ["title": "Forty-three", "done": true])
                _ = try await store.sync()
                #expect(try todos.find("number") == Todo(id: "number", title: "Forty-three", done: true))
            }
        }
    }
}
