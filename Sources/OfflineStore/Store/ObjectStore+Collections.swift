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
        try write("registering collection \(descriptor.name)") { db in
            try CollectionsTable.save(descriptor, in: db, statements: writerStatements)
        }
        registry.set(descriptor)
    }

    /// Every registered collection, sorted by name.
    public func collections() -> [CollectionDescriptor] {
        registry.all
    }

    /// The descriptor of a registered collection.
    ///
    /// - Throws: ``OfflineStoreError/Code/unknownCollection``.
    public func descriptor(of name: String) throws -> CollectionDescriptor {
        try registry.descriptor(of: name)
    }

    /// The update policy in force for a collection, given an optional per-call override.
    func effectiveUpdatePolicy(_ collection: CollectionDescriptor, override: UpdatePolicy?) -> UpdatePolicy {
        override ?? collection.updatePolicy ?? configuration.updatePolicy
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
