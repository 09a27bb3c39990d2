import Foundation
import GRDB
@testable import OfflineStore
import OfflineStoreTesting
import Testing

extension Models {
    @Suite("Typed collections on the in-memory backend")
    struct ModelCollectionTests {
        @Test func saveFindDeleteAndSync() async throws {
            try await withTodoStore { store, backend in
                let todos = store.collection(Todo.self)
                let milk = try await todos.save(Todo(id: "milk", title: "Buy milk", due: date(1_800_000_000.25)))
                #expect(milk == Todo(id: "milk", title: "Buy milk", due: date(1_800_000_000.25)))
                let found: Todo? = try todos.find("milk")
                #expect(found == milk)
                #expect(try todos.status(of: "milk") == .pending)
                #expect(try todos.json.find("milk")?["due"] == "2027-01-15T08:00:00.250Z")

                var done = milk
                done.done = true
                try await todos.save(done)
                #expect(try todos.find("milk")?.done == true)

                let report = try await store.sync()
                #expect(report.pushed == 1)
                #expect(try todos.status(of: "milk") == .synced)
                #expect(backend.serverRecord(collection: "todos", id: "milk")?.record["done"] == true)

                try await todos.delete("milk")
                #expect(try todos.find("milk") == nil)
                #expect(try todos.status(of: "milk") == .pending)
                _ = try await store.sync()
                #expect(backend.isDeleted(collection: "todos", id: "milk"))
                #expect(try todos.status(of: "milk") == nil)
            }
        }

        @Test func typedEditsInOneTransaction() async throws {
            try await withTodoStore { store, backend in
                _ = backend.put(collection: "todos", id: "a", record: ["title": "A", "done": false, "color": "red"])
                _ = try await store.sync()
                try await store.transaction { tx in
                    guard var a = try tx.find(Todo.self, id: "a") else { throw CancellationError() }
                    a.done = true
                    try tx.save(a)
                    try tx.save(Todo(id: "b", title: "B"))
                    try tx.delete(Todo.self, id: "b")
                    try tx.save(Todo(id: "c", title: "C"))
                }
                let todos = store.collection(Todo.self)
                #expect(try todos.findAll().map(\.id) == ["a", "c"])
                #expect(try todos.json.find("a") == ["id": "a", "title": "A", "done": true, "color": "red"])
            }
        }

        @Test func createRefusesAnExistingID() async throws {
            try await withTodoStore { store, _ in
                let todos = store.collection(Todo.self)
                try await todos.create(Todo(id: "a", title: "A"))
                let refused = await #expect(throws: OfflineStoreError.self) { try await todos.create(Todo(id: "a", title: "again")) }
                #expect(refused?.code == .alreadyExists)
                #expect(try todos.find("a")?.title == "A", "nothing changed")
            }
        }

        @Test func keyPathQueriesRunInSQLite() async throws {
            try await withTodoStore { store, _ in
                let todos = store.collection(Todo.self)
                for (i, title) in ["bread", "milk", "eggs", "milk shake"].enumerated() {
                    try await todos.save(Todo(id: "t\(i)", title: title, done: i % 2 == 1,
                                              due: i == 3 ? nil : date(1_800_000_000 + Double(i) * 86_400)))
                }
                #expect(try todos.findAll(where: \.done == false).map(\.id) == ["t0", "t2"])
                #expect(try todos.findAll(where: \.done == true && .contains(\.title, "milk")).map(\.id) == ["t1", "t3"])
                #expect(try todos.findAll(where: \.due == nil).map(\.id) == ["t3"])
                #expect(try todos.findAll(where: \.due < date(1_800_000_000 + 86_400 * 1.5)).map(\.id) == ["t0", "t1"])
                #expect(try todos.findAll(where: \.due >= date(1_800_000_000 + 86_400)).map(\.id) == ["t1", "t2"])
                #expect(try todos.findAll(where: .oneOf(\.title, ["eggs", "bread"])).map(\.id) == ["t0", "t2"])
                #expect(try todos.findAll(where: !(\.title == "milk")).count == 3)
                #expect(try todos.findAll(where: \.title != "milk" || \.done == false).count == 3)
                #expect(try todos.findAll(orderBy: [.descending(\.title)], limit: 2).map(\.title) == ["milk shake", "milk"])
                #expect(try todos.findAll(orderBy: [.ascending(\.title)], limit: 2, offset: 1).map(\.title) == ["eggs", "milk"])
                #expect(try todos.findFirst(where: \.done == true, orderBy: [.descending(\.id)])?.id == "t3")
                #expect(try todos.count(where: \.done == false) == 2)
                #expect(try todos.count() == 4)
                #expect(try await todos.deleteAll(where: \.done == true) == 2)
                #expect(try todos.count() == 2)
            }
        }

        @Test func predicatesCompileToTheEnginesConditions() throws {
            #expect(try (\Todo.done == false).condition.get() == .equal("done", false))
            #expect(try (\Todo.due == nil).condition.get() == .equal("due", .null))
            #expect(try (\Todo.due < date(1_800_000_000)).condition.get() == .less("due", "2027-01-15T08:00:00.000Z"))
            #expect(try (\Item.priority == .high && \Item.size > .small).condition.get()
                    == .and([.equal("priority", "high"), .greater("size", 1)]))
            #expect(try (\Item.price <= Decimal(string: "9.99") ?? 0).condition.get() == .lessOrEqual("price", 9.99))
            #expect(try (\Reminder.dueDate > date(1)).condition.get() == .greater("due_date", .int(1000)))
            #expect(try ModelSort<Reminder>.descending(\.dueDate).key.get() == SortKey("due_date", ascending: false))
            // A computed property has no stored name: the query throws instead of guessing.
            let computed = #expect(throws: OfflineStoreError.self) { try (\Todo.isOverdue == true).condition.get() }
            #expect(computed?.code == .invalidFieldPath)
        }

        @Test func aDeclaredIndexedFieldIsQueriedThroughItsIndex() async throws {
            try await withTemporaryStore { store in
                try store.register(Todo.self, fields: [
                    FieldSchema("title", .string, required: true, indexed: true),
                    FieldSchema("done", .boolean), FieldSchema("due", .string),
                ])
                let todos = store.collection(Todo.self)
                try await todos.save(Todo(id: "a", title: "A"))
                let (condition, _) = try ModelQuery<Todo>(where: \.title == "A").compiled()
                let query = try todos.json.selectQuery(where: condition, state: nil, orderBy: [], limit: nil, offset: 0)
                let (sql, arguments) = (query.sql, query.arguments)
                let plan = try store.local.read("explaining") { db in
                    try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String? ?? "" }.joined(separator: " ")
                }
                #expect(plan.contains("INDEX"), "\(plan)")
                #expect(try todos.findAll(where: \.title == "A").map(\.id) == ["a"])
            }
        }

        @Test func everyValueKindSurvivesTheStoreAndTheServer() async throws {
            let backend = InMemoryBackend()
            try await withTemporaryStore(backend: backend) { store in
                try store.register(Item.self)
                let items = store.collection(Item.self)
                let item = Item.sample()
                try await items.save(item)
                _ = try await store.sync()
                #expect(try items.find("i1") == item)
                #expect(backend.serverRecord(collection: "items", id: "i1")?.record["weight"] == .double(1.0))
                #expect(try items.findAll(where: \.priority == .high && \.size == .large && \.price == item.price).map(\.id) == ["i1"])
            }
        }
    }
}

extension Todo {
    /// A computed property: key paths to it compile but cannot be queried.
    var isOverdue: Bool { due.map { $0 < Date() } ?? false }
}
