import Foundation
@testable import OfflineStore
import OfflineStoreTesting
import Testing

/// Key paths find their stored names through the model's own `Codable` (no reflection, no
/// declaration): renames, nested paths, every kind of value, and typed errors for what
/// cannot be found.
@Suite("Field names from Codable")
struct ModelFieldNameTests {
    struct Place: Codable, Sendable, Equatable {
        var city: String
        var zip: String?
    }

    /// A model whose stored names differ from its property names, with a nested value.
    struct Task: SyncModel, Equatable {
        static let collectionName = "tasks"
        var id: String
        var title: String
        var dueDate: Date?
        var isDone: Bool
        var place: Place

        enum CodingKeys: String, CodingKey {
            case id, title
            case dueDate = "due_date"
            case isDone = "done"
            case place = "where"
        }

        /// Computed: no stored name.
        var isUrgent: Bool { !isDone && dueDate != nil }
    }

    static var deferred: ObjectStore.Configuration {
        var configuration = ObjectStore.Configuration()
        configuration.writeMode = .deferred
        return configuration
    }

    @Test func codingKeysRenamesAndNestedPathsNeedNoDeclaration() throws {
        #expect(try ModelFields.name(of: \Task.dueDate) == "due_date")
        #expect(try ModelFields.name(of: \Task.isDone) == "done")
        #expect(try ModelFields.name(of: \Task.title) == "title")
        #expect(try ModelFields.name(of: \Task.id) == "id")
        #expect(try ModelFields.name(of: \Task.place) == "where")
        #expect(try ModelFields.name(of: \Task.place.city) == "where.city")
        #expect(try ModelFields.name(of: \Task.place.zip) == "where.zip")
        #expect(try ModelFields.allNames(of: Task.self) == ["id", "title", "due_date", "done", "where"])
        #expect(try (\Task.dueDate < Date(timeIntervalSince1970: 1)).condition.get()
                == .less("due_date", "1970-01-01T00:00:01.000Z"))
        #expect(try ModelSort<Task>.ascending(\.place.city).key.get() == SortKey("where.city"))
    }

    @Test func aRenamedModelIsQueriedByKeyPathInSQLite() async throws {
        let store = try ObjectStore.inMemory(configuration: Self.deferred, backend: InMemoryBackend())
        defer { try? store.close() }
        try store.register(Task.self)
        let tasks = store.collection(Task.self)
        let soon = Date(timeIntervalSince1970: 1_800_000_000)
        try await tasks.save(Task(id: "a", title: "A", dueDate: soon, isDone: false, place: Place(city: "Lyon")))
        try await tasks.save(Task(id: "b", title: "B", dueDate: nil, isDone: true, place: Place(city: "Oslo", zip: "0150")))
        #expect(try tasks.json.find("a")?["due_date"] == "2027-01-15T08:00:00.000Z")
        #expect(try tasks.findAll(where: \.dueDate < soon.addingTimeInterval(1)).map(\.id) == ["a"])
        #expect(try tasks.findAll(where: \.isDone == true).map(\.id) == ["b"])
        #expect(try tasks.findAll(where: \.place.city == "Oslo").map(\.id) == ["b"])
        #expect(try tasks.findAll(orderBy: [.descending(\.place.city)]).map(\.id) == ["b", "a"])
        #expect(try tasks.count(where: \.place.zip == nil) == 1)
    }

    @Test func aTypedSaveKeepsUnknownMembersAndClearsKnownOnesUnderTheirStoredNames() async throws {
        let store = try ObjectStore.inMemory(configuration: Self.deferred, backend: InMemoryBackend())
        defer { try? store.close() }
        try store.register(Task.self)
        try await store.collection("tasks").create(["id": "a", "title": "A", "due_date": "2027-01-15T08:00:00.000Z",
                                                   "done": false, "where": ["city": "Lyon"], "color": "red"])
        let tasks = store.collection(Task.self)
        var task = try #require(try tasks.find("a"))
        task.dueDate = nil
        try await tasks.save(task)
        let stored = try #require(try tasks.json.find("a")?.objectValue)
        #expect(stored["color"] == "red", "a member the model does not know is kept")
        #expect(stored["due_date"] == nil, "a known member the model cleared is gone, not kept from before")
    }

    /// Every kind of value the probe has to invent, and many booleans (several rounds).
    struct Everything: SyncModel {
        static let collectionName = "everything"
        enum Level: String, Codable, Sendable, CaseIterable { case low, mid, high }
        enum Rank: Int, Codable, Sendable, CaseIterable { case first = 1, second = 2 }
        var id: String
        var b0: Bool, b1: Bool, b2: Bool, b3: Bool, b4: Bool, b5: Bool, b6: Bool, b7: Bool, b8: Bool, b9: Bool
        var small: Int8
        var unsigned: UInt64
        var ratio: Float
        var amount: Decimal
        var token: UUID
        var link: URL
        var bytes: Data
        var when: Date
        var any: JSONValue
        var tags: [String]
        var counts: [String: Int]
        var labels: Set<String>
        var level: Level
        var otherLevel: Level
        var rank: Rank
        var places: [Place]
        var maybePlace: Place?
    }

    @Test func everyKindOfValueHasItsOwnName() throws {
        let keyPaths: [(PartialKeyPath<Everything>, String)] = [
            (\.b0, "b0"), (\.b1, "b1"), (\.b2, "b2"), (\.b3, "b3"), (\.b4, "b4"), (\.b5, "b5"), (\.b6, "b6"),
            (\.b7, "b7"), (\.b8, "b8"), (\.b9, "b9"), (\.small, "small"), (\.unsigned, "unsigned"), (\.ratio, "ratio"),
            (\.amount, "amount"), (\.token, "token"), (\.link, "link"), (\.bytes, "bytes"), (\.when, "when"),
            (\.any, "any"), (\.tags, "tags"), (\.counts, "counts"), (\.labels, "labels"), (\.level, "level"),
            (\.otherLevel, "otherLevel"), (\.rank, "rank"), (\.places, "places"), (\.maybePlace, "maybePlace"),
            (\.maybePlace?.city, "maybePlace.city"),
        ]
        for (keyPath, name) in keyPaths {
            #expect(try ModelFields.name(of: keyPath) == name, "\(keyPath)")
        }
    }

    /// The message says the property is computed and names the model and its stored
    /// properties, never the getter's address the runtime describes a computed key path by.
    @Test func aComputedPropertyHasNoStoredName() {
        let error = #expect(throws: OfflineStoreError.self) { try ModelFields.name(of: \Task.isUrgent) }
        #expect(error?.code == .invalidFieldPath)
        let message = error?.message ?? ""
        #expect(message.contains("computed") && message.contains("Task") && message.contains("title"), "\(message)")
        #expect(!message.contains("0x"), "no memory address: \(message)")
        let predicate: ModelPredicate<Task> = \.isUrgent == true
        let query = #expect(throws: OfflineStoreError.self) { try predicate.condition.get() }
        #expect(query?.code == .invalidFieldPath)
        #expect(query?.message == message)
    }

    @Test func aKeyPathIsNamedWithoutAnAddress() {
        #expect(KeyPathText.clean(#"\Task.<computed 0x00005604d1f2a3b0 (Bool)>"#) == #"\Task.<a computed Bool property>"#)
        #expect(KeyPathText.clean(#"\Task.title"#) == #"\Task.title"#)
        #expect(KeyPathText.clean(#"\Task.<computed 0x1 (Optional<Int>)>.<computed 0xA2 (String)>"#)
                == #"\Task.<a computed Optional<Int> property>.<a computed String property>"#)
    }

    /// An enum with raw values that is not `CaseIterable`: the store cannot invent one.
    struct Refusing: SyncModel {
        static let collectionName = "refusing"
        enum Mood: String, Codable, Sendable { case calm, busy }
        var id: String
        var mood: Mood
    }

    @Test func aTypeThatRefusesEveryValueIsATypedErrorAtRegistration() throws {
        let store = try ObjectStore.inMemory()
        defer { try? store.close() }
        do {
            try store.register(Refusing.self)
            Issue.record("registering a model the store cannot read succeeded")
        } catch let error as OfflineStoreError {
            #expect(error.code == .configuration)
            #expect(error.message.contains("'mood'") && error.message.contains("CaseIterable"), "\(error.message)")
        }
    }

    /// The same enum in an optional field: the field decodes as nil, the others still work.
    struct OptionallyRefusing: SyncModel {
        static let collectionName = "optionally"
        var id: String
        var mood: Refusing.Mood?
        var name: String
    }

    @Test func anOptionalFieldOfARefusingTypeLeavesTheOthersNamed() throws {
        #expect(try ModelFields.name(of: \OptionallyRefusing.name) == "name")
        #expect(try ModelFields.name(of: \OptionallyRefusing.mood) == "mood")
        #expect(try ModelFields.allNames(of: OptionallyRefusing.self) == ["id", "mood", "name"])
    }

    /// A model that overrides what the probe finds.
    struct Overridden: SyncModel {
        static let collectionName = "overridden"
        static var renamedFields: [PartialKeyPath<Overridden>: String] { [\.title: "heading"] }
        var id: String
        var title: String
    }

    @Test func renamedFieldsOverridesWhatTheProbeFinds() throws {
        #expect(try ModelFields.name(of: \Overridden.title) == "heading")
        #expect(try ModelFields.name(of: \Overridden.id) == "id")
    }

    /// A class model with a decoder that checks its values.
    final class Note: SyncModel, @unchecked Sendable {
        // @unchecked: immutable.
        static let collectionName = "notes"
        let id: String
        let text: String

        init(id: String, text: String) {
            self.id = id
            self.text = text
        }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            text = try container.decode(String.self, forKey: .text)
            guard !text.isEmpty else {
                throw DecodingError.dataCorruptedError(forKey: .text, in: container, debugDescription: "empty")
            }
        }

        enum CodingKeys: String, CodingKey { case id, text = "body" }
    }

    @Test func aClassWithACheckingDecoderIsNamed() throws {
        #expect(try ModelFields.name(of: \Note.text) == "body")
    }

    @Test func conflictsRefuseNestedKeyPaths() throws {
        #expect(try ModelFields.topLevelName(of: \Task.place) == "where")
        do { _ = try ModelFields.topLevelName(of: \Task.place.city) } catch let error as OfflineStoreError {
            #expect(error.code == .invalidFieldPath)
            #expect(error.message.contains("where.city"), "\(error.message)")
        }
    }

    /// A coding key with a dot cannot be a field path.
    struct Dotted: SyncModel {
        static let collectionName = "dotted"
        var id: String
        var version: String
        enum CodingKeys: String, CodingKey { case id, version = "app.version" }
    }

    @Test func aStoredNameWithADotIsRefusedForQueries() {
        let error = #expect(throws: OfflineStoreError.self) { try ModelFields.name(of: \Dotted.version) }
        #expect(error?.code == .invalidFieldPath)
    }
}
