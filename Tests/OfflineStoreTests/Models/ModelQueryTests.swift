import Foundation
import GRDB
@testable import OfflineStore
import OfflineStoreTesting
import Testing

/// A note with tags and a pin: the queries of issue 28 (membership, case, a boolean alone).
struct Note: SyncModel, Equatable {
    static let collectionName = "notes"
    var id: String
    var title: String
    var tags: [String] = []
    var pinned = false
    var ratings: [Int]?
}

extension Models {
    @Suite("Typed queries: arrays, case, booleans", .timeLimit(.minutes(5)))
    struct ModelQueryTests {
        /// Notes a…e with tags, pins and titles in mixed case; `fields` declares a fixed schema.
        func withNotes(fields: [FieldSchema]? = nil, _ body: (ObjectStore, ModelCollection<Note>) async throws -> Void) async throws {
            try await withTemporaryStore(configuration: .deferred) { store in
                try store.register(Note.self, fields: fields)
                let notes = store.collection(Note.self)
                try await notes.save(Note(id: "a", title: "Buy MILK", tags: ["home", "shop"], pinned: true, ratings: [1, 5]))
                try await notes.save(Note(id: "b", title: "milk shake", tags: ["Home"], pinned: false))
                try await notes.save(Note(id: "c", title: "Crème brûlée", tags: [], pinned: true, ratings: [3]))
                try await notes.save(Note(id: "d", title: "home work", tags: ["work", "home"]))
                try await notes.save(Note(id: "e", title: "CRÈME FRAÎCHE", tags: ["shop"]))
                try await body(store, notes)
            }
        }

        @Test func arrayMembershipMatchesWholeElements() async throws {
            try await withNotes { _, notes async throws in
                #expect(try notes.findAll(where: .contains(\.tags, "home")).map(\.id) == ["a", "d"],
                        "an element equal to the value, case-sensitive; a title containing 'home' does not count")
                #expect(try notes.findAll(where: .contains(\.tags, "hom")).isEmpty, "whole elements, not substrings")
                #expect(try notes.findAll(where: .contains(\.ratings, 5)).map(\.id) == ["a"])
                #expect(try notes.findAll(where: !.contains(\.tags, "shop")).map(\.id) == ["b", "c", "d"])
                #expect(try notes.count(where: .contains(\.tags, "shop") && \.pinned == true) == 1)
                #expect(try (ModelPredicate<Note>.contains(\.tags, "home")).condition.get() == .arrayContains("tags", "home"))
            }
        }

        @Test func caseInsensitiveContainsFoldsEveryScript() async throws {
            try await withNotes { _, notes async throws in
                #expect(try notes.findAll(where: .contains(\.title, "milk")).map(\.id) == ["b"], "contains stays case-sensitive")
                #expect(try notes.findAll(where: .containsIgnoringCase(\.title, "milk")).map(\.id) == ["a", "b"])
                #expect(try notes.findAll(where: .containsIgnoringCase(\.title, "MiLk S")).map(\.id) == ["b"])
                #expect(try notes.findAll(where: .containsIgnoringCase(\.title, "crème")).map(\.id) == ["c", "e"],
                        "non-ASCII letters fold too (È and è)")
                #expect(try notes.findAll(where: .containsIgnoringCase(\.title, "creme")).isEmpty, "accents are not ignored")
                #expect(try notes.findAll(where: .containsIgnoringCase(\.title, "%")).isEmpty, "no wildcard: % is a character")
                #expect(try notes.findAll(where: !.containsIgnoringCase(\.title, "milk")).map(\.id) == ["c", "d", "e"])
            }
        }

        @Test func aBooleanKeyPathAloneIsAPredicate() async throws {
            try await withNotes { store, notes async throws in
                #expect(try notes.findAll(where: \.pinned).map(\.id) == ["a", "c"])
                #expect(try notes.findAll(where: !\.pinned).map(\.id) == ["b", "d", "e"])
                #expect(try notes.count(where: \.pinned) == 2)
                #expect(try notes.findFirst(where: \.pinned, orderBy: [.descending(\.title)])?.id == "c")
                #expect(try notes.findAll(ModelQuery(where: \.pinned, orderBy: [.ascending(\.id)])).map(\.id) == ["a", "c"])
                #expect(try notes.findAll(where: !\.pinned && .containsIgnoringCase(\.title, "milk")).map(\.id) == ["b"])
                #expect(try notes.findAll(where: .contains(\.tags, "shop") && \.pinned).map(\.id) == ["a"])
                #expect(try notes.findAll(where: \.pinned || .contains(\.tags, "work")).map(\.id) == ["a", "c", "d"])
                var iterator = notes.observeAll(where: \.pinned).makeAsyncIterator()
                #expect(try await iterator.next()?.map(\.id) == ["a", "c"])
                #expect(try await notes.deleteAll(where: \.pinned) == 2)
                #expect(try notes.findAll().map(\.id) == ["b", "d", "e"])
                _ = store
            }
        }

        @Test func aDeclaredIndexedFieldServesTheNewPredicates() async throws {
            let fields = [FieldSchema("title", .string, required: true, indexed: true), FieldSchema("tags", .array, indexed: true),
                          FieldSchema("pinned", .boolean, indexed: true), FieldSchema("ratings", .array)]
            try await withNotes(fields: fields) { store, notes async throws in
                func plan(_ predicate: ModelPredicate<Note>) throws -> String {
                    let (condition, _) = try ModelQuery<Note>(where: predicate).compiled()
                    let query = try notes.json.selectQuery(where: condition, state: nil, orderBy: [], limit: nil, offset: 0)
                    return try store.local.read("explaining") { db in
                        try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + query.sql, arguments: query.arguments)
                            .map { $0["detail"] as String? ?? "" }.joined(separator: " | ")
                    }
                }
                let pinned = try plan(ModelPredicate(\.pinned))
                #expect(pinned.contains("USING INDEX objects_field_pinned (collection=? AND <expr>=?)"), "\(pinned)")
                let both = try plan(.contains(\.tags, "home") && \.pinned)
                #expect(both.contains("USING INDEX objects_field_pinned (collection=? AND <expr>=?)"), "\(both)")
                #expect(try notes.findAll(where: \.pinned).map(\.id) == ["a", "c"])
                #expect(try notes.findAll(where: .contains(\.tags, "home")).map(\.id) == ["a", "d"])
                #expect(try notes.findAll(where: .contains(\.tags, "home") && \.pinned).map(\.id) == ["a"])
                #expect(try notes.findAll(where: .containsIgnoringCase(\.title, "MILK")).map(\.id) == ["a", "b"])
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
        @MainActor
        @Test func liveQueriesTakeAnOrderAloneAndABooleanKeyPath() async throws {
            let temporary = try TemporaryStore(configuration: .deferred)
            try temporary.store.register(Note.self)
            let notes = temporary.store.collection(Note.self)
            try await notes.save(Note(id: "b", title: "B", pinned: true))
            try await notes.save(Note(id: "a", title: "A"))
            let byTitle = LiveQuery(notes, orderBy: [.descending(\.title)])           // no where: needed
            let pinned = LiveQuery(notes, where: \.pinned)
            try await waitUntil(byTitle) { $0.isLoaded }
            try await waitUntil(pinned) { $0.isLoaded }
            #expect(byTitle.models.map(\.id) == ["b", "a"])
            #expect(pinned.models.map(\.id) == ["b"])
            #expect(try notes.status(of: "a") == .pending)
            #expect(try notes.status(of: "zz") == nil, "no object with this id")
            byTitle.stop()
            pinned.stop()
        }

        @Test func countCountsWhatFindAllReturns() async throws {
            try await withNotes { store, notes async throws in
                // Another client's record that this version of the model cannot read.
                try await notes.json.save(["id": "f", "title": 7, "tags": ["home"], "pinned": true])
                let found = try notes.findAll(where: .contains(\.tags, "home"))
                #expect(found.map(\.id) == ["a", "d"])
                #expect(found.undecodable.map(\.id) == ["f"])
                #expect(try notes.count(where: .contains(\.tags, "home")) == found.count, "typed count: the models findAll returns")
                #expect(try notes.count() == 5)
                #expect(try notes.json.count() == 6, "the JSON count counts every stored object, undecodable ones too")
                #expect(try notes.findAll().undecodable.count == 1)
                _ = store
            }
        }

        @Test func jsonConditionsHaveTheSameCapabilities() async throws {
            try await withTemporaryStore(configuration: .deferred) { store in
                try store.register(CollectionDescriptor("things"))
                let things = store.collection("things")
                try await things.save(["id": "1", "name": "Grüne Äpfel", "tags": ["red", "green"], "sizes": [1, 2.5], "flags": [true]])
                try await things.save(["id": "2", "name": "äpfel", "tags": "red green"])
                try await things.save(["id": "3", "name": 42, "tags": [["red"]], "flags": [false, .null]])
                func ids(_ condition: Condition) throws -> [String] {
                    try things.findAll(where: condition).compactMap { $0["id"]?.stringValue }
                }
                #expect(try ids(.arrayContains("tags", "red")) == ["1"], "a string field is not an array, a nested array is not an element")
                #expect(try ids(.arrayContains("sizes", 2.5)) == ["1"])
                #expect(try ids(.arrayContains("flags", true)) == ["1"])
                #expect(try ids(.arrayContains("flags", .null)) == ["3"])
                #expect(try ids(.arrayContains("missing", "red")).isEmpty)
                #expect(try ids(.containsIgnoringCase("name", "ÄPFEL")) == ["1", "2"])
                #expect(try ids(.containsIgnoringCase("name", "42")).isEmpty, "only string fields match")
                #expect(try ids(.not(.arrayContains("tags", "red"))) == ["2", "3"])
                let refused = #expect(throws: OfflineStoreError.self) { try ids(.arrayContains("tags", ["red"])) }
                #expect(refused?.code == .invalidOperation)
            }
        }
    }
}
