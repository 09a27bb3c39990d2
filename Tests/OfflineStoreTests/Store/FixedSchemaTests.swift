import Testing
@testable import OfflineStore

/// Fixed-schema collections declare fields and reject objects that break them with a
/// clear error naming the field and the reason (SPEC §1).
@Suite("Fixed-schema collections")
struct FixedSchemaTests {
    static let products = CollectionDescriptor("products", fields: [
        FieldSchema("name", .string, required: true, indexed: true),
        FieldSchema("qty", .integer),
        FieldSchema("price", .number),
        FieldSchema("active", .boolean),
        FieldSchema("meta", .object),
        FieldSchema("tags", .array),
    ])

    /// Creates the object and returns the schema error; fails the test if the create succeeds.
    static func violation(_ store: ObjectStore, _ object: JSONValue,
                          sourceLocation: SourceLocation = #_sourceLocation) async -> OfflineStoreError? {
        let error = await #expect(throws: OfflineStoreError.self, sourceLocation: sourceLocation) {
            try await store.collection("products").create(object)
        }
        #expect(error?.code == .schemaViolation, sourceLocation: sourceLocation)
        return error
    }

    @Test func validObjectsAreStoredAsGiven() async throws {
        try await withTemporaryStore(collections: [Self.products]) { store async throws in
            let products = store.collection("products")
            let full: JSONValue = ["id": "p1", "name": "Tea", "qty": 3, "price": 2.5, "active": true,
                                   "meta": ["origin": "India"], "tags": ["hot", 1]]
            #expect(try await products.create(full) == full)
            try await products.create(["id": "p2", "name": "Milk", "price": 1])  // an integer is a number
            try await products.create(["name": "Bread"])                          // the id is not declared but allowed
            #expect(try products.count() == 3)
            #expect(try products.find("p1") == full)
        }
    }

    @Test func aMissingRequiredFieldIsRefused() async throws {
        try await withTemporaryStore(collections: [Self.products]) { store async throws in
            let error = await Self.violation(store, ["id": "p", "qty": 1])
            #expect(error?.message.contains("'name'") == true, "\(String(describing: error))")
            #expect(error?.message.contains("required") == true)
            #expect(error?.message.contains("products") == true)
            let null = await Self.violation(store, ["id": "p", "name": .null])
            #expect(null?.message.contains("'name' is required") == true, "\(String(describing: null))")
            #expect(try store.collection("products").count() == 0)
            #expect(try store.queueCount() == 0)
        }
    }

    @Test("a value of the wrong type is refused", arguments: [
        ("name", JSONValue.int(1), "string", "integer"),
        ("name", ["x"], "string", "array"),
        ("qty", 1.5, "integer", "number"),
        ("qty", 1.0, "integer", "number"),
        ("qty", "3", "integer", "string"),
        ("price", "2.5", "number", "string"),
        ("price", true, "number", "boolean"),
        ("active", 1, "boolean", "integer"),
        ("active", "true", "boolean", "string"),
        ("meta", [1], "object", "array"),
        ("meta", "{}", "object", "string"),
        ("tags", ["a": 1], "array", "object"),
        ("tags", "a,b", "array", "string"),
    ] as [(String, JSONValue, String, String)])
    func wrongType(field: String, value: JSONValue, expected: String, got: String) async throws {
        try await withTemporaryStore(collections: [Self.products]) { store async throws in
            var object: JSONValue = ["id": "p", "name": "Tea"]
            object[field] = value
            let error = await Self.violation(store, object)
            #expect(error?.message.contains("'\(field)' must be \(expected), got \(got)") == true, "\(String(describing: error))")
            try Self.expectNothingWritten(store)
        }
    }

    static func expectNothingWritten(_ store: ObjectStore, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try store.collection("products").object("p") == nil, sourceLocation: sourceLocation)
        #expect(try store.queueCount() == 0, sourceLocation: sourceLocation)
    }

    @Test func anUndeclaredFieldIsRefused() async throws {
        try await withTemporaryStore(collections: [Self.products]) { store async throws in
            let error = await Self.violation(store, ["id": "p", "name": "Tea", "colour": "green"])
            #expect(error?.message.contains("'colour' is not declared") == true, "\(String(describing: error))")
            let nullError = await Self.violation(store, ["id": "p", "name": "Tea", "colour": .null])
            #expect(nullError?.message.contains("'colour'") == true)
            try Self.expectNothingWritten(store)
        }
    }

    @Test func nullIsAcceptedForOptionalFields() async throws {
        try await withTemporaryStore(collections: [Self.products]) { store async throws in
            let products = store.collection("products")
            let object: JSONValue = ["id": "p", "name": "Tea", "qty": .null, "price": .null, "active": .null, "meta": .null, "tags": .null]
            #expect(try await products.create(object) == object)
            #expect(try products.find("p") == object)
            #expect(try products.count(where: .equal("qty", .null)) == 1)
        }
    }

    @Test func everyEditIsValidated() async throws {
        try await withTemporaryStore(collections: [Self.products]) { store async throws in
            let products = store.collection("products")
            try await products.create(["id": "p", "name": "Tea", "qty": 1])
            let edits: [@Sendable () async throws -> Void] = [
                { try await products.patch("p", ["qty": "many"]) },
                { try await products.patch("p", ["name": .null]) },
                { try await products.patch("p", ["extra": 1]) },
                { try await products.replace("p", with: ["qty": 2]) },
                { try await products.save(["id": "p", "name": 5]) },
                { try await products.save(["id": "q"]) },
                { _ = try await store.transaction { tx in try tx.patch("p", ["qty": 1.5], in: "products") } },
            ]
            for edit in edits {
                let error = await #expect(throws: OfflineStoreError.self) { try await edit() }
                #expect(error?.code == .schemaViolation)
            }
            #expect(try products.find("p") == ["id": "p", "name": "Tea", "qty": 1])
            #expect(try products.find("q") == nil)
            // Removing an optional field with a null patch is fine.
            try await products.patch("p", ["qty": .null, "price": 3])
            #expect(try products.find("p") == ["id": "p", "name": "Tea", "price": 3])
        }
    }

    // MARK: Declarations

    @Test("bad field declarations are refused", arguments: [
        ("", "must be letters"), ("1abc", "must be letters"), ("a-b", "must be letters"), ("a.b", "must be letters"),
        ("a b", "must be letters"), ("é", "must be letters"), ("a'b", "must be letters"), ("a\"b", "must be letters"),
        ("id", "not 'id'"), (String(repeating: "a", count: 65), "must be letters"),
    ])
    func badFieldNames(name: String, reason: String) async throws {
        try await withTemporaryStore { store async throws in
            let error = #expect(throws: OfflineStoreError.self) {
                try store.register(CollectionDescriptor("bad", fields: [FieldSchema("ok", .string), FieldSchema(name, .string, indexed: true)]))
            }
            #expect(error?.code == .invalidFieldPath)
            #expect(error?.message.contains("'\(name)'") == true, "\(String(describing: error))")
            #expect(error?.message.contains(reason) == true, "\(String(describing: error))")
            #expect(store.collections().isEmpty)
            expectStoreError(.unknownCollection) { try store.collection("bad").count() }
        }
    }

    @Test func goodFieldNames() async throws {
        try await withTemporaryStore { store async throws in
            let names = ["a", "_", "_private", "camelCase", "snake_case", "A1", String(repeating: "a", count: 64)]
            try store.register(CollectionDescriptor("good", fields: names.map { FieldSchema($0, .string, indexed: true) }))
            #expect(try store.descriptor(of: "good").fields?.map(\.name) == names)
        }
    }

    @Test func aFieldDeclaredTwiceIsRefused() async throws {
        try await withTemporaryStore { store async throws in
            let error = #expect(throws: OfflineStoreError.self) {
                try store.register(CollectionDescriptor("bad", fields: [FieldSchema("name", .string), FieldSchema("name", .integer)]))
            }
            #expect(error?.code == .invalidFieldPath)
            #expect(error?.message.contains("'name' is declared twice") == true, "\(String(describing: error))")
            #expect(store.collections().isEmpty)
        }
    }

    @Test("bad collection names are refused", arguments: ["", String(repeating: "c", count: 129), "a\nb", "tab\t", "\u{7F}"])
    func badCollectionNames(name: String) async throws {
        try await withTemporaryStore { store async throws in
            let error = #expect(throws: OfflineStoreError.self) { try store.register(CollectionDescriptor(name)) }
            #expect(error?.code == .invalidOperation)
            #expect(error?.message.contains("collection name") == true)
            #expect(store.collections().isEmpty)
        }
    }

    @Test func registeringAgainWithOtherFieldsIsRefused() async throws {
        try await withTemporaryStore(collections: [Self.products]) { store async throws in
            try await store.collection("products").create(["id": "p", "name": "Tea"])
            let others: [[FieldSchema]?] = [
                [FieldSchema("name", .string, required: true)],
                [FieldSchema("name", .string, required: true, indexed: true), FieldSchema("extra", .string)],
                Self.products.fields.map { $0.map { f in FieldSchema(f.name, f.type, required: !f.isRequired, indexed: f.isIndexed) } },
                nil,
            ]
            for fields in others {
                let error = #expect(throws: OfflineStoreError.self) { try store.register(CollectionDescriptor("products", fields: fields)) }
                #expect(error?.code == .collectionExists)
                #expect(error?.message.contains("products") == true)
            }
            // The registered schema is unchanged, in memory and in the file.
            #expect(try store.descriptor(of: "products").fields == Self.products.fields)
            await expectStoreError(.schemaViolation) { try await store.collection("products").create(["id": "q"]) }
            // A property bag cannot become fixed either.
            try store.register(CollectionDescriptor("bag"))
            let error = #expect(throws: OfflineStoreError.self) {
                try store.register(CollectionDescriptor("bag", fields: [FieldSchema("a", .string)]))
            }
            #expect(error?.code == .collectionExists)
        }
    }

    @Test func registeringAgainWithTheSameFieldsUpdatesThePolicies() async throws {
        try await withTemporaryStore(collections: [Self.products]) { store async throws in
            var again = Self.products
            again.updatePolicy = .updateIfOnline
            again.conflictPolicy = .clientWins
            try store.register(again)
            let descriptor = try store.descriptor(of: "products")
            #expect(descriptor.updatePolicy == .updateIfOnline)
            #expect(descriptor.conflictPolicy.name == "client-wins")
            #expect(descriptor.hasFixedSchema)
            await expectStoreError(.offline) { try await store.collection("products").create(["id": "p", "name": "Tea"]) }
        }
    }
}
