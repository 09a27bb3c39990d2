import Foundation
import Testing
@testable import OfflineStore

/// The local API (SPEC §2) on a store without a backend: every edit is local and queued.
@Suite("ObjectStore local API")
struct ObjectStoreLocalAPITests {
    static let collections = [
        CollectionDescriptor("todos"),
        CollectionDescriptor("notes"),
        CollectionDescriptor("drafts", localOnly: true),
    ]

    /// Nothing at all was written for this object: no row, no queue entry.
    static func expectUntouched(_ store: ObjectStore, _ collection: String, _ id: String,
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try store.collection(collection).object(id) == nil, sourceLocation: sourceLocation)
        #expect(try store.queueEntries(collection: collection, id: id).isEmpty, sourceLocation: sourceLocation)
    }

    // MARK: create and ids

    @Test func createGeneratesALowercaseUUID() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            let created = try await todos.create(["title": "Buy milk"])
            let id = try #require(created["id"]?.stringValue)
            #expect(UUID(uuidString: id) != nil)
            #expect(id == id.lowercased())
            #expect(created == ["id": .string(id), "title": "Buy milk"])
            #expect(try todos.find(id) == created)
            #expect(try store.onlyEntry("todos", id).kind == .create)
            let other = try await todos.create(["title": "Buy bread"])
            #expect(other["id"] != created["id"])
        }
    }

    @Test func createWithANullIDGeneratesOne() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let created = try await store.collection("todos").create(["id": .null, "n": 1])
            #expect(created["id"]?.stringValue.flatMap(UUID.init(uuidString:)) != nil)
            let inTransaction = try await store.transaction { tx in try tx.create(["id": .null, "n": 2], in: "todos") }
            let id = try #require(inTransaction["id"]?.stringValue)
            #expect(UUID(uuidString: id) != nil)
            #expect(try store.collection("todos").find(id)?["n"] == 2)
        }
    }

    @Test func createKeepsAGivenID() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            let created = try await todos.create(["id": "Mixed-Case é/1", "n": 1])
            #expect(created == ["id": "Mixed-Case é/1", "n": 1])
            #expect(try todos.find("Mixed-Case é/1") == created)
            #expect(try todos.find("mixed-case é/1") == nil)
        }
    }

    @Test("an id must be a string", arguments: [JSONValue.int(5), .double(1.5), .bool(true), ["x"], ["a": 1]])
    func nonStringID(id: JSONValue) async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let error = await #expect(throws: OfflineStoreError.self) {
                try await store.collection("todos").create(["id": id, "n": 1])
            }
            #expect(error?.code == .invalidID)
            #expect(try store.collection("todos").count() == 0)
            #expect(try store.queueCount() == 0)
        }
    }

    @Test func createOverAnExistingObjectFails() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try await todos.create(["id": "a", "n": 1])
            let error = await #expect(throws: OfflineStoreError.self) { try await todos.create(["id": "a", "n": 2]) }
            #expect(error?.code == .alreadyExists)
            #expect(try todos.find("a") == ["id": "a", "n": 1])
            try store.seedSynced("todos", ["id": "s"])
            await expectStoreError(.alreadyExists) { try await todos.create(["id": "s"]) }
        }
    }

    static let badIDs: [String] = [
        "", "a\nb", "tab\there", "nul\u{0}",
        "\u{7F}", "\u{1B}[31m",
    ]

    @Test("invalid ids are refused and nothing is written", arguments: badIDs)
    func invalidIDs(id: String) async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try store.seedSynced("todos", ["id": "other", "n": 0])
            for attempt: @Sendable () async throws -> Void in [
                { try await todos.create(["id": .string(id), "n": 1]) },
                { try await todos.save(["id": .string(id), "n": 1]) },
                { try await todos.replace(id, with: ["n": 1]) },
                { try await todos.patch(id, ["n": 1]) },
                { try await todos.destroy(id) },
                { _ = try await store.transaction { tx in try tx.create(["id": .string(id)], in: "todos") } },
            ] {
                let error = await #expect(throws: OfflineStoreError.self) { try await attempt() }
                #expect(error?.code == .invalidID, "\(String(describing: error))")
            }
            #expect(try todos.count() == 1)
            #expect(try store.queueCount() == 0)
            #expect(try todos.object("other")?.state == .synced)
        }
    }

    /// The store sets no length limit of its own (the backend's rules decide; see
    /// Docs/Backends.md, "Object ids"): a store without a backend takes any length.
    @Test func idsOfAnyLengthAndTextAreAccepted() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            for id in [String(repeating: "x", count: 10_000), String(repeating: "é", count: 129), "😀", " ", "'; DROP TABLE objects; --"] {
                try await todos.create(["id": .string(id)])
                #expect(try todos.find(id)?["id"] == .string(id))
            }
            #expect(try todos.count() == 5)
        }
    }

    @Test func anObjectsIDMustMatchTheIDItIsStoredUnder() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try await todos.create(["id": "a", "n": 1])
            let error = await #expect(throws: OfflineStoreError.self) { try await todos.replace("a", with: ["id": "b", "n": 2]) }
            #expect(error?.code == .invalidID)
            #expect(try todos.find("a") == ["id": "a", "n": 1])
            #expect(try todos.find("b") == nil)
        }
    }

    @Test("objects must be JSON objects", arguments: [JSONValue.array([1, 2]), "text", 5, 1.5, true, .null])
    func nonObjectJSON(value: JSONValue) async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try await todos.create(["id": "a", "n": 1])
            for attempt: @Sendable () async throws -> Void in [
                { try await todos.create(value) },
                { try await todos.save(value) },
                { try await todos.replace("a", with: value) },
            ] {
                let error = await #expect(throws: OfflineStoreError.self) { try await attempt() }
                #expect(error?.code == .invalidJSON)
            }
            #expect(try todos.find("a") == ["id": "a", "n": 1])
            #expect(try store.queueCount() == 1)
        }
    }

    @Test func nonFiniteNumbersAreInvalidJSON() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            let error = await #expect(throws: OfflineStoreError.self) {
                try await todos.create(["id": "a", "deep": ["x": [.double(.nan)]]])
            }
            #expect(error?.code == .invalidJSON)
            try Self.expectUntouched(store, "todos", "a")
        }
    }

    @Test func unknownCollections() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let nope = store.collection("nope")
            var errors: [OfflineStoreError?] = []
            errors.append(expectStoreError(.unknownCollection) { try nope.find("a") })
            errors.append(expectStoreError(.unknownCollection) { try nope.findAll() })
            errors.append(expectStoreError(.unknownCollection) { try nope.count() })
            errors.append(expectStoreError(.unknownCollection) { try nope.descriptor() })
            errors.append(await expectStoreError(.unknownCollection) { try await nope.create(["id": "a"]) })
            errors.append(await expectStoreError(.unknownCollection) { try await nope.destroy("a") })
            errors.append(await expectStoreError(.unknownCollection) {
                try await store.transaction { tx in try tx.create(["id": "a"], in: "nope") }
            })
            #expect(errors.allSatisfy { $0?.code == .unknownCollection })
            #expect(try store.queueCount() == 0)
        }
    }

    // MARK: copies and states

    @Test func objectCopiesAndStates() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try store.seedSynced("todos", ["id": "s", "n": 0], version: "v1")
            var synced = try #require(try todos.object("s"))
            #expect(synced.state == .synced)
            #expect(synced.local == nil && synced.base == nil && synced.baseVersion == nil)
            #expect(synced.persistent == ["id": "s", "n": 0])
            #expect(synced.serverVersion == "v1")
            #expect(synced.value == ["id": "s", "n": 0])
            #expect(!synced.hasLocalEdit)
            #expect(try todos.persistent("s") == ["id": "s", "n": 0])

            try await todos.create(["id": "c", "n": 1])
            let created = try #require(try todos.object("c"))
            #expect(created.collection == "todos" && created.id == "c")
            #expect(created.state == .created)
            #expect(created.local == ["id": "c", "n": 1])
            #expect(created.persistent == nil && created.base == nil && created.baseVersion == nil && created.serverVersion == nil)
            #expect(created.hasLocalEdit)
            #expect(try todos.persistent("c") == nil)

            try await todos.patch("s", ["n": 1])
            let updated = try #require(try todos.object("s"))
            #expect(updated.state == .updated)
            #expect(updated.local == ["id": "s", "n": 1])
            #expect(updated.value == ["id": "s", "n": 1])
            #expect(updated.persistent == ["id": "s", "n": 0])
            #expect(updated.base == ["id": "s", "n": 0])
            #expect(updated.baseVersion == "v1")
            #expect(try todos.persistent("s") == ["id": "s", "n": 0])

            try await todos.destroy("s")
            let deleted = try #require(try todos.object("s"))
            #expect(deleted.state == .deleted)
            #expect(deleted.isLocallyDeleted && deleted.local == nil && deleted.value == nil)
            #expect(deleted.persistent == ["id": "s", "n": 0])
            #expect(deleted.base == ["id": "s", "n": 0])
            #expect(try todos.find("s") == nil)
            #expect(try todos.persistent("s") == ["id": "s", "n": 0])
            synced = try #require(try todos.objects(state: .deleted).first)
            #expect(synced.id == "s")
            #expect(try todos.objects(state: .created).map(\.id) == ["c"])
            #expect(try todos.findAll().map { $0["id"] } == ["c"])
            #expect(try todos.object("missing") == nil)
            #expect(try todos.find("missing") == nil)
        }
    }

    // MARK: edits

    @Test func replaceSwapsAllFields() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try await todos.create(["id": "a", "title": "x", "n": 1])
            let replaced = try await todos.replace("a", with: ["title": "y"])
            #expect(replaced == ["id": "a", "title": "y"])
            #expect(try todos.find("a") == ["id": "a", "title": "y"])
            let error = await #expect(throws: OfflineStoreError.self) { try await todos.replace("missing", with: ["n": 1]) }
            #expect(error?.code == .notFound)
            try Self.expectUntouched(store, "todos", "missing")
        }
    }

    @Test func saveCreatesOrReplaces() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try await todos.save(["id": "a", "n": 1])
            #expect(try store.onlyEntry("todos", "a").kind == .create)
            try await todos.save(["id": "a", "title": "t"])
            #expect(try todos.find("a") == ["id": "a", "title": "t"])
            #expect(try store.onlyEntry("todos", "a").kind == .create)

            try store.seedSynced("todos", ["id": "s", "n": 0])
            try await todos.save(["id": "s", "n": 9])
            #expect(try store.onlyEntry("todos", "s").kind == .update)
            #expect(try todos.object("s")?.state == .updated)
            let generated = try await todos.save(["n": 3])
            #expect(generated["id"]?.stringValue.flatMap(UUID.init(uuidString:)) != nil)
        }
    }

    @Test func patchMergesAndNullRemoves() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try await todos.create(["id": "a", "title": "x", "n": 1, "tags": ["p"], "gone": true])
            let patched = try await todos.patch("a", ["n": 2, "gone": .null, "added": ["k": 1], "id": "ignored"])
            let expected: JSONValue = ["id": "a", "title": "x", "n": 2, "tags": ["p"], "added": ["k": 1]]
            #expect(patched == expected)
            #expect(try todos.find("a") == expected)
            try await todos.patch("a", [:])
            #expect(try todos.find("a") == expected)

            for id in ["missing", "deleted"] {
                if id == "deleted" {
                    try store.seedSynced("todos", ["id": "deleted"])
                    try await todos.destroy("deleted")
                }
                let error = await #expect(throws: OfflineStoreError.self) { try await todos.patch(id, ["n": 1]) }
                #expect(error?.code == .notFound)
            }
            #expect(try todos.object("missing") == nil)
            #expect(try todos.object("deleted")?.isLocallyDeleted == true)
        }
    }

    @Test func destroyLeavesATombstoneOrNothing() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try store.seedSynced("todos", ["id": "s"])
            try await todos.create(["id": "c"])
            try await todos.destroy("s")
            try await todos.destroy("c")
            #expect(try todos.find("s") == nil)
            #expect(try todos.object("s")?.isLocallyDeleted == true)
            #expect(try todos.object("s")?.state == .deleted)
            #expect(try store.onlyEntry("todos", "s").kind == .delete)
            try Self.expectUntouched(store, "todos", "c")
            #expect(try todos.count() == 0)
            for id in ["s", "c", "never"] {
                let error = await #expect(throws: OfflineStoreError.self) { try await todos.destroy(id) }
                #expect(error?.code == .notFound)
            }
        }
    }

    @Test func destroyAllMatching() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            for i in 0..<6 { try await todos.create(["id": .string("t\(i)"), "done": .bool(i % 2 == 0)]) }
            try store.seedSynced("todos", ["id": "s", "done": true])
            try await store.collection("notes").create(["id": "n", "done": true])
            let count = try await todos.destroyAll(where: .equal("done", true))
            #expect(count == 4)
            #expect(try todos.findAll().compactMap { $0["id"]?.stringValue } == ["t1", "t3", "t5"])
            #expect(try todos.object("s")?.state == .deleted)
            #expect(try store.queueEntries(collection: "todos").map(\.objectID) == ["t1", "t3", "t5", "s"])
            #expect(try store.collection("notes").count() == 1)
            #expect(try await todos.destroyAll() == 3)
            #expect(try todos.count() == 0)
            #expect(try await todos.destroyAll() == 0)
        }
    }

    // MARK: queries

    static func seedPeople(_ store: ObjectStore) async throws {
        let people = store.collection("todos")
        let rows: [JSONValue] = [
            ["id": "p1", "name": "Ann", "age": 31, "city": "Oslo", "score": 1.5, "tags": ["a"], "address": ["city": "Oslo"]],
            ["id": "p2", "name": "Bob", "age": 25, "city": "Rome", "score": 2.5, "address": ["city": "Rome"]],
            ["id": "p3", "name": "Cid", "age": 40, "city": "Oslo", "score": 0.5],
            ["id": "p4", "name": "Dee", "age": 25, "city": "Paris", "active": false],
            ["id": "p5", "name": "Eve", "age": 58, "active": true],
            ["id": "p6", "name": "Fay", "age": 19, "city": "Rome", "nick": .null],
        ]
        for row in rows { try await people.create(row) }
        try store.seedSynced("todos", ["id": "p7", "name": "Gus", "age": 70, "city": "Oslo"])
        try store.seedSynced("todos", ["id": "p8", "name": "Hal", "age": 33, "city": "Oslo"])
        try await people.destroy("p8")
    }

    static func ids(_ values: [JSONValue]) -> [String] { values.compactMap { $0["id"]?.stringValue } }

    @Test func findAllWithConditions() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            try await Self.seedPeople(store)
            let people = store.collection("todos")
            func find(_ condition: Condition) throws -> [String] { Self.ids(try people.findAll(where: condition)) }
            #expect(try Self.ids(people.findAll()) == ["p1", "p2", "p3", "p4", "p5", "p6", "p7"])
            #expect(try find(.equal("city", "Oslo")) == ["p1", "p3", "p7"])
            #expect(try find(.equal("address.city", "Rome")) == ["p2"])
            #expect(try find(.equal("age", 25)) == ["p2", "p4"])
            #expect(try find(.equal("age", 25.0)) == ["p2", "p4"])
            #expect(try find(.equal("age", "25")) == [])
            #expect(try find(.notEqual("city", "Oslo")) == ["p2", "p4", "p5", "p6"])
            #expect(try find(.equal("city", .null)) == ["p5"])
            #expect(try find(.equal("nick", .null)) == ["p1", "p2", "p3", "p4", "p5", "p6", "p7"])
            #expect(try find(.notEqual("score", .null)) == ["p1", "p2", "p3"])
            #expect(try find(.less("age", 25)) == ["p6"])
            #expect(try find(.lessOrEqual("age", 25)) == ["p2", "p4", "p6"])
            #expect(try find(.greater("age", 40)) == ["p5", "p7"])
            #expect(try find(.greaterOrEqual("score", 1.5)) == ["p1", "p2"])
            #expect(try find(.oneOf("name", ["Ann", "Eve", "Zed"])) == ["p1", "p5"])
            #expect(try find(.oneOf("name", [])) == [])
            #expect(try find(.contains("name", "e")) == ["p4", "p5"])
            #expect(try find(.equal("active", true)) == ["p5"])
            #expect(try find(.equal("active", false)) == ["p4"])
            #expect(try find(.equal("tags", ["a"])) == ["p1"])
            #expect(try find(.equal("address", ["city": "Oslo"])) == ["p1"])
            #expect(try find(.equal("city", "Oslo") && .greater("age", 35)) == ["p3", "p7"])
            #expect(try find(.equal("city", "Paris") || .greater("age", 50)) == ["p4", "p5", "p7"])
            #expect(try find(!.equal("city", "Oslo")) == ["p2", "p4", "p5", "p6"])
            #expect(try find(!(.equal("city", "Oslo") || .equal("city", "Rome"))) == ["p4", "p5"])
            #expect(try find(.and([])) == ["p1", "p2", "p3", "p4", "p5", "p6", "p7"])
            #expect(try find(.or([])) == [])
            #expect(try find(.equal("id", "p3")) == ["p3"])
            #expect(try find(.equal("name", "Hal")) == [], "a local delete is not found")
            let error = #expect(throws: OfflineStoreError.self) { try people.findAll(where: .less("age", .null)) }
            #expect(error?.code == .invalidOperation)
        }
    }

    @Test func orderLimitOffsetAndCount() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            try await Self.seedPeople(store)
            let people = store.collection("todos")
            #expect(try Self.ids(people.findAll(orderBy: [.ascending("age")])) == ["p6", "p2", "p4", "p1", "p3", "p5", "p7"])
            #expect(try Self.ids(people.findAll(orderBy: [.descending("age")])) == ["p7", "p5", "p3", "p1", "p2", "p4", "p6"])
            #expect(try Self.ids(people.findAll(orderBy: [.descending("age"), .descending("name")])) ==
                ["p7", "p5", "p3", "p1", "p4", "p2", "p6"])
            #expect(try Self.ids(people.findAll(where: .equal("city", "Oslo"), orderBy: [.descending("name")])) == ["p7", "p3", "p1"])
            #expect(try Self.ids(people.findAll(orderBy: [.ascending("age")], limit: 2)) == ["p6", "p2"])
            #expect(try Self.ids(people.findAll(orderBy: [.ascending("age")], limit: 2, offset: 2)) == ["p4", "p1"])
            #expect(try Self.ids(people.findAll(orderBy: [.ascending("age")], offset: 5)) == ["p5", "p7"])
            #expect(try Self.ids(people.findAll(limit: 0)) == [])
            #expect(try Self.ids(people.findAll(offset: 100)) == [])
            #expect(try people.findFirst(where: .equal("city", "Rome"), orderBy: [.descending("age")])?["id"] == "p2")
            #expect(try people.findFirst(orderBy: [SortKey("age", ascending: false)])?["id"] == "p7")
            #expect(try people.findFirst(where: .equal("city", "Lima")) == nil)
            #expect(try people.count() == 7)
            #expect(try people.count(where: .equal("city", "Oslo")) == 3)
            #expect(try people.count(where: .greater("age", 100)) == 0)
            #expect(try store.collection("notes").count() == 0)
        }
    }

    // MARK: transactions

    @Test func transactionCommitsEverything() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            try store.seedSynced("todos", ["id": "s", "n": 0])
            let result = try await store.transaction { tx -> Int in
                try tx.create(["id": "a", "n": 1], in: "todos")
                try tx.patch("a", ["n": 2], in: "todos")
                #expect(try tx.find("a", in: "todos") == ["id": "a", "n": 2])
                try tx.save(["id": "b"], in: "notes")
                try tx.replace("s", with: ["n": 5], in: "todos")
                try tx.create(["id": "d"], in: "drafts")
                try tx.destroy("d", in: "drafts")
                return 42
            }
            #expect(result == 42)
            #expect(try store.collection("todos").find("a") == ["id": "a", "n": 2])
            #expect(try store.collection("todos").find("s") == ["id": "s", "n": 5])
            #expect(try store.queueEntries().map(\.objectID) == ["a", "b", "s"])
        }
    }

    struct Abort: Error {}

    @Test func transactionIsAllOrNothing() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            try store.seedSynced("todos", ["id": "s", "n": 0])
            try await store.collection("todos").create(["id": "before"])
            await #expect(throws: Abort.self) {
                try await store.transaction { tx in
                    try tx.create(["id": "a"], in: "todos")
                    try tx.patch("s", ["n": 1], in: "todos")
                    try tx.destroy("before", in: "todos")
                    try tx.create(["id": "b"], in: "notes")
                    try tx.create(["id": "d"], in: "drafts")
                    throw Abort()
                }
            }
            try Self.expectUntouched(store, "todos", "a")
            try Self.expectUntouched(store, "notes", "b")
            #expect(try store.collection("drafts").object("d") == nil)
            #expect(try store.collection("todos").object("s")?.state == .synced)
            #expect(try store.collection("todos").find("before") == ["id": "before"])
            #expect(try store.queueEntries().map(\.objectID) == ["before"])
        }
    }

    // MARK: isChanged, cancel

    @Test func isChangedForObjectCollectionAndStore() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try store.seedSynced("todos", ["id": "s"])
            #expect(try store.isChanged() == false)
            #expect(try todos.isChanged() == false)
            #expect(try todos.isChanged("s") == false)
            try await todos.patch("s", ["n": 1])
            #expect(try store.isChanged())
            #expect(try todos.isChanged())
            #expect(try todos.isChanged("s"))
            #expect(try todos.isChanged("other") == false)
            #expect(try store.collection("notes").isChanged() == false)
            try store.cancel(entry: try store.onlyEntry("todos", "s").seq)
            #expect(try store.isChanged() == false)
            #expect(try todos.isChanged("s") == false)
        }
    }

    @Test func cancelRollsBackToThePersistentCopy() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try store.seedSynced("todos", ["id": "u", "n": 0], version: "v1")
            try store.seedSynced("todos", ["id": "d", "n": 0], version: "v1")
            try await todos.patch("u", ["n": 1])
            try await todos.destroy("d")
            try await todos.create(["id": "c"])

            try store.cancel(entry: try store.onlyEntry("todos", "u").seq)
            let u = try #require(try todos.object("u"))
            #expect(u.state == .synced && u.local == nil && u.base == nil && u.baseVersion == nil)
            #expect(u.value == ["id": "u", "n": 0])
            #expect(u.serverVersion == "v1")

            try store.cancel(entry: try store.onlyEntry("todos", "d").seq)
            #expect(try todos.find("d") == ["id": "d", "n": 0])
            #expect(try todos.object("d")?.state == .synced)

            try store.cancel(entry: try store.onlyEntry("todos", "c").seq)
            try Self.expectUntouched(store, "todos", "c")
            #expect(try store.queueCount() == 0)

            let error = #expect(throws: OfflineStoreError.self) { try store.cancel(entry: 999) }
            #expect(error?.code == .notFound)
        }
    }

    @Test func cancelDropsEveryEntryOfTheObjectButNotWhileInFlight() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try store.seedSynced("todos", ["id": "s", "n": 0])
            try await todos.patch("s", ["n": 1])
            let first = try store.onlyEntry("todos", "s")
            try store.setQueueState(.failed, seq: first.seq)
            try await todos.patch("s", ["n": 2])
            #expect(try store.queueEntries(collection: "todos", id: "s").count == 2)
            try store.cancel(entry: first.seq)
            #expect(try store.queueEntries(collection: "todos", id: "s").isEmpty)
            #expect(try todos.find("s") == ["id": "s", "n": 0])

            try await todos.patch("s", ["n": 3])
            let entry = try store.onlyEntry("todos", "s")
            try store.setQueueState(.inFlight, seq: entry.seq)
            let error = #expect(throws: OfflineStoreError.self) { try store.cancel(entry: entry.seq) }
            #expect(error?.code == .invalidOperation)
            #expect(try todos.find("s") == ["id": "s", "n": 3])
            #expect(try store.queueCount() == 1)
        }
    }

    // MARK: local-only collections

    @Test func localOnlyCollectionsNeverQueue() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let drafts = store.collection("drafts")
            try await drafts.create(["id": "a", "n": 1])
            try await drafts.patch("a", ["n": 2])
            try await drafts.save(["id": "b"])
            try await drafts.replace("b", with: ["t": "x"])
            try await store.transaction { tx in try tx.create(["id": "c"], in: "drafts") }
            #expect(try store.queueCount() == 0)
            #expect(try store.isChanged() == false)
            #expect(try drafts.isChanged() == false)
            #expect(try drafts.isChanged("a") == false)
            let a = try #require(try drafts.object("a"))
            #expect(a.state == .synced && a.value == ["id": "a", "n": 2] && !a.hasLocalEdit)
            try await drafts.destroy("a")
            #expect(try drafts.object("a") == nil, "a local-only delete leaves no tombstone")
            #expect(try drafts.count() == 2)
            #expect(try await drafts.destroyAll() == 2)
            #expect(try store.queueCount() == 0)
        }
    }

    // MARK: update policies

    @Test func updateIfOnlineWithoutABackendChangesNothing() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            try store.seedSynced("todos", ["id": "s", "n": 0])
            for attempt: @Sendable () async throws -> Void in [
                { try await todos.create(["id": "a"], policy: .updateIfOnline) },
                { try await todos.save(["id": "a"], policy: .updateIfOnline) },
                { try await todos.save(["id": "s", "n": 1], policy: .updateIfOnline) },
                { try await todos.replace("s", with: ["n": 1], policy: .updateIfOnline) },
                { try await todos.patch("s", ["n": 1], policy: .updateIfOnline) },
                { try await todos.destroy("s", policy: .updateIfOnline) },
                { try await todos.destroyAll(policy: .updateIfOnline) },
            ] {
                let error = await #expect(throws: OfflineStoreError.self) { try await attempt() }
                #expect(error?.code == .offline)
            }
            try Self.expectUntouched(store, "todos", "a")
            #expect(try todos.object("s")?.state == .synced)
            #expect(try todos.find("s") == ["id": "s", "n": 0])
            #expect(try store.queueCount() == 0)
        }
    }

    @Test func collectionPolicyAndPerCallOverride() async throws {
        let collections = [CollectionDescriptor("strict", updatePolicy: .updateIfOnline), CollectionDescriptor("todos")]
        try await withTemporaryStore(collections: collections) { store async throws in
            let strict = store.collection("strict")
            let error = await #expect(throws: OfflineStoreError.self) { try await strict.create(["id": "a"]) }
            #expect(error?.code == .offline)
            try Self.expectUntouched(store, "strict", "a")
            await expectStoreError(.offline) {
                try await store.transaction { tx in try tx.create(["id": "a"], in: "strict") }
            }
            try Self.expectUntouched(store, "strict", "a")

            try await strict.create(["id": "a"], policy: .queueIfOffline)
            #expect(try store.onlyEntry("strict", "a").kind == .create)
            try await store.collection("todos").create(["id": "t"])
            // The other collection still queues inside a transaction.
            try await store.transaction { tx in try tx.create(["id": "t2"], in: "todos") }
            #expect(try store.queueCount() == 3)
        }
    }

    @Test func storeWidePolicyAndPerCallOverride() async throws {
        let configuration = ObjectStore.Configuration.with { $0.updatePolicy = .updateIfOnline }
        let collections = [CollectionDescriptor("todos"), CollectionDescriptor("lenient", updatePolicy: .queueIfOffline),
                           CollectionDescriptor("drafts", localOnly: true)]
        try await withTemporaryStore(configuration: configuration, collections: collections) { store async throws in
            let todos = store.collection("todos")
            let error = await #expect(throws: OfflineStoreError.self) { try await todos.create(["id": "a"]) }
            #expect(error?.code == .offline)
            try Self.expectUntouched(store, "todos", "a")

            try await todos.create(["id": "a"], policy: .queueIfOffline)
            try await todos.patch("a", ["n": 1], policy: .queueIfOffline)
            await expectStoreError(.offline) { try await todos.patch("a", ["n": 2]) }
            #expect(try todos.find("a") == ["id": "a", "n": 1])
            // A collection's own policy beats the store's; local-only collections never need a server.
            try await store.collection("lenient").create(["id": "l"])
            try await store.collection("drafts").create(["id": "d"])
            #expect(try store.queueEntries().map(\.objectID) == ["a", "l"])
            #expect(try await todos.destroyAll(policy: .queueIfOffline) == 1)
            #expect(try todos.object("a") == nil, "a pending create and its delete cancel out")
            #expect(try store.queueEntries().map(\.objectID) == ["l"])
        }
    }

    @Test func forcingOfflineIsRemembered() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            #expect(!store.isForcedOffline)
            store.setOffline(true)
            #expect(store.isForcedOffline)
            try await store.collection("todos").create(["id": "a"])
            await expectStoreError(.offline) {
                try await store.collection("todos").patch("a", ["n": 1], policy: .updateIfOnline)
            }
            store.setOffline(false)
            #expect(!store.isForcedOffline)
            #expect(try store.collection("todos").find("a") == ["id": "a"])
        }
    }
}
