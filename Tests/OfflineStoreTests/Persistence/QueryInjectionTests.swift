import GRDB
import Testing
@testable import OfflineStore

/// Field names and values are bound, never spliced into SQL (SPEC §2): hostile input gives
/// correct results or a typed `invalidFieldPath` error, never an SQL error.
@Suite("Query injection")
struct QueryInjectionTests {
    static let collections = [
        CollectionDescriptor("things"),
        CollectionDescriptor("others"),
        CollectionDescriptor("products", fields: [
            FieldSchema("name", .string, indexed: true),
            FieldSchema("n", .integer, indexed: true),
            FieldSchema("code", .string),
        ]),
    ]

    /// Field names that are plain JSON keys (no dot, quote or control character): each
    /// must find exactly the object that has it.
    static let hostileKeys: [String] = [
        "'", "''", "'); DROP TABLE objects; --", "\"); DROP TABLE objects; --".replacingOccurrences(of: "\"", with: "`"),
        "a[0]", "*", "$", "[", "]", "#", "?", ":name", "@p", "%", "_", "a b", " ", "ключ", "😀", "é",
        "objects", "doc", "id\u{301}", "-- comment", "/* x */", "a;b", "$[0]",
        String(repeating: "k", count: 512),
    ]

    /// Field paths that cannot be queried: a typed error, never an SQL error.
    static let invalidPaths: [String] = [
        "", ".", "..", "a..b", ".a", "a.", "\"", "a\"b", "\"); DROP TABLE objects; --", "\\", "a\\b", "a.\\", "a\nb", "\u{0}", "\u{7F}",
        String(repeating: "k", count: 513), String(repeating: "k", count: 1024), String(repeating: "é", count: 300),
    ]

    static func seed(_ store: ObjectStore) async throws {
        let things = store.collection("things")
        for (i, key) in hostileKeys.enumerated() {
            try await things.create(["id": .string("k\(i)"), key: "v", "n": .int(Int64(i))])
        }
        try await store.collection("others").create(["id": "o", "'": "v"])
    }

    static func expectTablesIntact(_ store: ObjectStore, objects: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let tables = try store.local.read("listing tables") { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        for table in ["collections", "meta", "objects", "queue"] {
            #expect(tables.contains(table), "table \(table) is gone", sourceLocation: sourceLocation)
        }
        let count = try store.local.read("counting") { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM objects") }
        #expect(count == objects, sourceLocation: sourceLocation)
        #expect(try store.queueCount() == objects, sourceLocation: sourceLocation)
    }

    @Test func hostileFieldNamesFindExactlyTheirObject() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            try await Self.seed(store)
            let things = store.collection("things")
            for (i, key) in Self.hostileKeys.enumerated() {
                let found = try things.findAll(where: .equal(key, "v")).compactMap { $0["id"]?.stringValue }
                #expect(found == ["k\(i)"], "field \(key.debugDescription)")
                #expect(try things.count(where: .equal(key, "v")) == 1, "field \(key.debugDescription)")
                #expect(try things.count(where: .notEqual(key, .null)) == 1, "field \(key.debugDescription)")
                #expect(try things.findAll(where: .contains(key, "v"), orderBy: [.ascending(key)]).count == 1)
                #expect(try things.findAll(orderBy: [.descending(key)]).count == Self.hostileKeys.count)
            }
            try Self.expectTablesIntact(store, objects: Self.hostileKeys.count + 1)
        }
    }

    @Test func dottedPathsReachNestedFields() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let things = store.collection("things")
            try await things.create(["id": "nested", "a": ["b": "v", "'": ["*": "w"]], "$": ["a": "x"]])
            try await things.create(["id": "flat", "a.b": "v", "$.a": "x"])
            #expect(try things.findAll(where: .equal("a.b", "v")).map { $0["id"] } == ["nested"])
            #expect(try things.findAll(where: .equal("a.'.*", "w")).map { $0["id"] } == ["nested"])
            #expect(try things.findAll(where: .equal("$.a", "x")).map { $0["id"] } == ["nested"])
            #expect(try things.findAll(where: .equal("a.b.c", "v")).isEmpty)
            #expect(try things.findAll(where: .equal("a[0]", "v")).isEmpty)
        }
    }

    @Test("invalid field paths are typed errors", arguments: invalidPaths)
    func invalidFieldPaths(path: String) async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            try await Self.seed(store)
            let things = store.collection("things")
            var errors: [OfflineStoreError?] = []
            errors.append(expectStoreError(.invalidFieldPath) { try things.findAll(where: .equal(path, "v")) })
            errors.append(expectStoreError(.invalidFieldPath) { try things.findAll(where: .contains(path, "v")) })
            errors.append(expectStoreError(.invalidFieldPath) { try things.findAll(where: .oneOf(path, ["v"])) })
            errors.append(expectStoreError(.invalidFieldPath) { try things.findAll(where: !(.less(path, 1))) })
            errors.append(expectStoreError(.invalidFieldPath) { try things.findAll(orderBy: [.ascending(path)]) })
            errors.append(expectStoreError(.invalidFieldPath) { try things.findFirst(where: .equal(path, .null)) })
            errors.append(expectStoreError(.invalidFieldPath) { try things.count(where: .greater(path, 0)) })
            errors.append(await expectStoreError(.invalidFieldPath) { try await things.destroyAll(where: .equal(path, "v")) })
            for error in errors {
                #expect(error?.code == .invalidFieldPath, "\(path.debugDescription): \(String(describing: error))")
            }
            try Self.expectTablesIntact(store, objects: Self.hostileKeys.count + 1)
        }
    }

    static let hostileValues: [String] = [
        "'", "''", "\"", "'); DROP TABLE objects; --", "\"); DROP TABLE objects; --", "%", "_", "a%b", "a_b", "100%",
        "\\", "\\%", "*", "?", "ключ", "😀", "", " ", "a\nb", "NULL", "null", "1", "1 OR 1=1", "' OR '1'='1",
        "[1]", "{\"a\":1}", String(repeating: "x", count: 10_000),
    ]

    @Test func hostileValuesMatchExactly() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let things = store.collection("things")
            let products = store.collection("products")
            for (i, value) in Self.hostileValues.enumerated() {
                try await things.create(["id": .string("v\(i)"), "s": .string(value)])
                try await products.create(["id": .string("p\(i)"), "name": .string(value), "code": .string(value)])
            }
            for (i, value) in Self.hostileValues.enumerated() {
                for (collection, field, prefix) in [("things", "s", "v"), ("products", "name", "p"), ("products", "code", "p")] {
                    let found = try store.collection(collection).findAll(where: .equal(field, .string(value)))
                    #expect(found.map { $0["id"] } == [.string("\(prefix)\(i)")], "\(field) == \(value.debugDescription)")
                    #expect(try store.collection(collection).count(where: .notEqual(field, .string(value))) == Self.hostileValues.count - 1)
                }
                #expect(try things.count(where: .oneOf("s", [.string(value), "no such value"])) == 1)
                #expect(try things.count(where: .equal("id", .string("v\(i)"))) == 1)
            }
            // A value never matches a different type.
            #expect(try things.findAll(where: .equal("s", 1)).isEmpty)
            #expect(try things.findAll(where: .equal("s", .null)).isEmpty)
            try Self.expectTablesIntact(store, objects: Self.hostileValues.count * 2)
        }
    }

    @Test func containsIsLiteral() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let things = store.collection("things")
            let products = store.collection("products")
            let values = ["100%", "100 percent", "a_b", "axb", "ab", "A_B", "back\\slash", "star*", "brackets[a]", "quote'd"]
            for (i, value) in values.enumerated() {
                try await things.create(["id": .string("t\(i)"), "s": .string(value)])
                try await products.create(["id": .string("p\(i)"), "name": .string(value)])
            }
            for collection in [things, products] {
                let field = collection.name == "things" ? "s" : "name"
                func matches(_ text: String) throws -> [String] {
                    try collection.findAll(where: .contains(field, text), orderBy: [.ascending(field)])
                        .compactMap { $0[field]?.stringValue }
                }
                #expect(try matches("%") == ["100%"])
                #expect(try matches("_") == ["A_B", "a_b"])
                #expect(try matches("a_b") == ["a_b"])
                #expect(try matches("\\") == ["back\\slash"])
                #expect(try matches("*") == ["star*"])
                #expect(try matches("[a]") == ["brackets[a]"])
                #expect(try matches("'") == ["quote'd"])
                #expect(try matches("x") == ["axb"])
                #expect(try matches("") == values.sorted())
                #expect(try matches("%%").isEmpty)
            }
        }
    }

    // MARK: Indexes on declared fields

    @Test func declaredIndexedFieldsHaveAnIndex() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let indexes = try store.local.read("listing indexes") { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'objects'")
            }
            #expect(indexes.contains("objects_field_name"))
            #expect(indexes.contains("objects_field_n"))
            #expect(!indexes.contains("objects_field_code"))
        }
    }

    /// The query plan of the SQL that `findAll(where:)` runs for a condition.
    static func queryPlan(_ store: ObjectStore, _ collection: String, _ condition: Condition,
                          orderBy: [SortKey] = []) throws -> [String] {
        let query = try store.collection(collection)
            .selectQuery(where: condition, state: nil, orderBy: orderBy, limit: nil, offset: 0)
        let (sql, arguments) = (query.sql, query.arguments)
        return try store.local.read("explaining") { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
        }
    }

    @Test func queriesOnIndexedFieldsUseTheIndex() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let products = store.collection("products")
            for i in 0..<200 {
                try await products.create(["id": .string("p\(i)"), "name": .string("name \(i % 50)"), "n": .int(Int64(i)), "code": "c"])
            }
            // No ANALYZE: apps never run it, and the index must be used all the same.
            let byName = try Self.queryPlan(store, "products", .equal("name", "name 7"))
            #expect(byName.contains { $0.contains("objects_field_name") }, "\(byName)")
            let byRange = try Self.queryPlan(store, "products", .greater("n", 190))
            #expect(byRange.contains { $0.contains("objects_field_n") }, "\(byRange)")
            let byHostile = try Self.queryPlan(store, "products", .equal("name", "'); DROP TABLE objects; --"))
            #expect(byHostile.contains { $0.contains("objects_field_name") }, "\(byHostile)")
            let byList = try Self.queryPlan(store, "products", .oneOf("name", ["name 1", "name 2"]) && .equal("code", "c"),
                                            orderBy: [.descending("n")])
            #expect(byList.contains { $0.contains("objects_field_name") }, "\(byList)")
            let nested = try Self.queryPlan(store, "products", .and([.and([.lessOrEqual("n", 3)]), .contains("name", "1")]))
            #expect(nested.contains { $0.contains("objects_field_n") }, "\(nested)")
            // An undeclared or unindexed field cannot use a field index.
            let byCode = try Self.queryPlan(store, "products", .equal("code", "c"))
            #expect(!byCode.contains { $0.contains("objects_field_") }, "\(byCode)")

            // And the results through the public API are right.
            #expect(try products.count(where: .equal("name", "name 7")) == 4)
            #expect(try products.findAll(where: .greater("n", 196), orderBy: [.descending("n")]).map { $0["n"] } == [199, 198, 197])
            #expect(try products.count(where: .equal("code", "c")) == 200)
            #expect(try products.count(where: .oneOf("name", ["name 1", "name 2"]) && .equal("code", "c")) == 8)
            #expect(try products.count(where: .and([.and([.lessOrEqual("n", 3)]), .contains("name", "1")])) == 1)
            #expect(try products.count(where: .equal("name", "name 1") || .greater("n", 197)) == 6)
            #expect(try products.count(where: .notEqual("name", "name 1")) == 196)
            #expect(try products.count(where: .equal("name", .null)) == 0)
            #expect(try products.count(where: !.equal("n", 5)) == 199)
        }
    }
}
