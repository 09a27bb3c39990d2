import Foundation
import OfflineStore
import OfflineStoreTesting
import Testing

/// The model: a to-do with an optional due date.
struct Todo: SyncModel, Equatable {
    static let collectionName = "todos"
    var id: String
    var title: String
    var done = false
    var due: Date?
}

/// A model with every kind of value the encoding must round-trip exactly.
struct Item: SyncModel, Equatable {
    static let collectionName = "items"

    enum Priority: String, Codable, Sendable, CaseIterable, ModelQueryValue { case low, high }
    enum Size: Int, Codable, Sendable, CaseIterable, ModelQueryValue { case small = 1, large = 3 }
    struct Dimensions: Codable, Sendable, Equatable { var width: Double; var depth: Double; var unit: String }

    var id: String
    var name: String
    var price: Decimal
    var weight: Double
    var quantity: Int
    var priority: Priority
    var size: Size
    var dimensions: Dimensions
    var tags: [String]
    var history: [Dimensions]
    var madeAt: Date
    var note: String?

    static func sample(_ id: String = "i1", name: String = "Chair", price: String = "12.34") -> Item {
        Item(id: id, name: name, price: Decimal(string: price) ?? 0, weight: 1.0, quantity: 3, priority: .high,
             size: .large, dimensions: .init(width: 0.5, depth: 2.0, unit: "m"), tags: ["home", "é"],
             history: [.init(width: 1, depth: 1, unit: "cm")],
             madeAt: Date(timeIntervalSince1970: 1_800_000_000.123), note: nil)
    }
}

/// A model whose dates are milliseconds since 1970 and whose `dueDate` is stored as
/// `due_date` (its `CodingKeys` say so, and nothing else: queries find the stored name).
struct Reminder: SyncModel, Equatable {
    static let collectionName = "reminders"
    static var dateEncoding: ModelDateEncoding { .millisecondsSince1970 }

    var id: String
    var dueDate: Date

    enum CodingKeys: String, CodingKey {
        case id
        case dueDate = "due_date"
    }
}

/// Runs `body` with a store on a fresh in-memory server, `Todo` registered with `policy`.
func withTodoStore<T>(
    conflictPolicy: ConflictPolicy = .preserveConflict,
    deferred: Bool = true,
    _ body: (ObjectStore, InMemoryBackend) async throws -> T
) async throws -> T {
    let backend = InMemoryBackend()
    let configuration = ObjectStore.Configuration.with { if deferred { $0.writeMode = .deferred } }
    return try await withTemporaryStore(configuration: configuration, backend: backend) { store in
        try store.register(Todo.self, conflictPolicy: conflictPolicy)
        return try await body(store, backend)
    }
}

/// A ``TemporaryStore`` on a fresh in-memory server, `Todo` registered, deferred writes; for
/// tests isolated to the main actor, which cannot pass closures to ``withTodoStore``.
func makeTodoStore() throws -> (TemporaryStore, InMemoryBackend) {
    let backend = InMemoryBackend()
    let temporary = try TemporaryStore(configuration: .deferred, backend: backend)
    try temporary.store.register(Todo.self)
    return (temporary, backend)
}

/// A date with whole milliseconds, as ISO 8601 with milliseconds keeps it.
func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

/// The typed-model suites, grouped so `--filter Models` runs them all.
@Suite("Typed models") enum Models {}
