import GRDB
import Foundation

extension ObjectStore {
    /// Registers a collection, or updates its policies if it exists with the same schema.
    ///
    /// Declared indexed fields get an SQLite index. A custom conflict resolver lives
    /// in memory only: register the collection again after reopening.
    /// - Throws: ``OfflineStoreError`` `invalidFieldPath` for a bad field declaration,
    ///   `collectionExists` when the collection exists with different fields.
    public func register(_ descriptor: CollectionDescriptor) throws {
        try descriptor.validateDefinition()
        try checkBlobSupport(descriptor)
        let stored = StoredDescriptor(descriptor)
        let text = try String(decoding: JSONEncoder().encode(stored), as: UTF8.self)
        try write("registering collection \(descriptor.name)") { db in
            if let existing = try String.fetchOne(db, sql: "SELECT descriptor FROM collections WHERE name = ?", arguments: [descriptor.name]) {
                let old = try JSONDecoder().decode(StoredDescriptor.self, from: Data(existing.utf8))
                if old.fields != stored.fields {
                    throw OfflineStoreError(.collectionExists, "collection \(descriptor.name) exists with other fields")
                }
                try db.execute(sql: "UPDATE collections SET descriptor = ? WHERE name = ?", arguments: [text, descriptor.name])
            } else {
                try db.execute(sql: "INSERT INTO collections(name, descriptor) VALUES (?, ?)", arguments: [descriptor.name, text])
            }
            for field in descriptor.fields ?? [] where field.isIndexed {
                try db.execute(sql: FieldIndex.createSQL(for: field.name))
                writerStatements.removeAll()  // the schema changed: prepare them again, as GRDB does its cache
            }
        }
        descriptors.withLock { $0[descriptor.name] = descriptor }
    }

    /// Every registered collection, sorted by name.
    public func collections() -> [CollectionDescriptor] {
        descriptors.withLock { Array($0.values) }.sorted { $0.name < $1.name }
    }

    /// The descriptor of a registered collection.
    ///
    /// - Throws: ``OfflineStoreError/Code/unknownCollection``.
    public func descriptor(of name: String) throws -> CollectionDescriptor {
        guard let d = descriptors.withLock({ $0[name] }) else {
            throw OfflineStoreError(.unknownCollection, "no collection named '\(name)' is registered")
        }
        return d
    }

    /// The update policy in force for a collection, given an optional per-call override.
    func effectiveUpdatePolicy(_ collection: CollectionDescriptor, override: UpdatePolicy?) -> UpdatePolicy {
        override ?? collection.updatePolicy ?? configuration.updatePolicy
    }

    func loadDescriptors() throws {
        let rows = try read("loading collections") { db in
            try Row.fetchAll(db, sql: "SELECT name, descriptor FROM collections")
        }
        var loaded: [String: CollectionDescriptor] = [:]
        for row in rows {
            let name: String = row["name"]
            let text: String = row["descriptor"]
            guard let stored = try? JSONDecoder().decode(StoredDescriptor.self, from: Data(text.utf8)) else {
                throw OfflineStoreError(.corrupted, "the definition of collection '\(name)' cannot be read")
            }
            loaded[name] = stored.descriptor(named: name)
        }
        descriptors.withLock { $0 = loaded }
    }
}

/// The SQLite index on a declared field, and the expression queries must repeat to use it.
enum FieldIndex {
    /// The indexed expression; `name` is a declared field name (letters, digits, `_` only).
    static func expression(for name: String) -> String {
        precondition(FieldSchema.isValidName(name))
        return "json_extract(doc, '$.\(name)')"
    }

    /// The index's name, quoted for SQL; `name` is a declared field name.
    static func quotedName(for name: String) -> String {
        precondition(FieldSchema.isValidName(name))
        return "\"objects_field_\(name)\""
    }

    static func createSQL(for name: String) -> String {
        "CREATE INDEX IF NOT EXISTS \(quotedName(for: name)) ON objects(collection, \(expression(for: name)))"
    }
}
