import Foundation
import GRDB

/// Reads and writes of the `collections` table: each registered collection's definition
/// and its pull cursor. Every function but ``load(into:from:)`` runs inside the caller's transaction.
enum CollectionsTable {
    /// Reads every stored definition into `registry`.
    ///
    /// - Throws: ``OfflineStoreError/Code/corrupted`` for a definition that cannot be read.
    static func load(into registry: CollectionRegistry, from local: LocalStore) throws {
        let rows = try local.read("loading collections") { db in
            try Row.fetchAll(db, sql: "SELECT name, descriptor, schema_version FROM collections")
        }
        var loaded: [String: CollectionDescriptor] = [:]
        for row in rows {
            let name: String = row["name"]
            let text: String = row["descriptor"]
            guard let stored = try? JSONDecoder().decode(StoredDescriptor.self, from: Data(text.utf8)) else {
                throw OfflineStoreError(.corrupted, "the definition of collection '\(name)' cannot be read")
            }
            loaded[name] = stored.descriptor(named: name)
            loaded[name]?.schemaVersion = row["schema_version"]
        }
        registry.replaceAll(loaded)
        let readOnly = try local.read("loading collection access") { db in
            try String.fetchAll(db, sql: "SELECT name FROM collections WHERE access = ?", arguments: [readOnlyAccess])
        }
        registry.setReadOnly(Set(readOnly))
    }

    /// The stored `access` of a collection the user may read but not write on the server.
    static let readOnlyAccess = "read-only"

    /// Records whether the user may only read a collection on the server (as its preparation found).
    static func setReadOnly(_ readOnly: Bool, of collection: String, in db: Database) throws {
        try db.execute(sql: "UPDATE collections SET access = ? WHERE name = ?",
                       arguments: [readOnly ? readOnlyAccess : "read-write", collection])
    }

    /// Stores a collection's definition; an existing one must have the same fields.
    ///
    /// - Returns: the definition it replaced, if the collection was registered before.
    /// - Throws: ``OfflineStoreError/Code/collectionExists`` when the stored fields differ,
    ///   ``OfflineStoreError/Code/corrupted`` when the stored definition cannot be read.
    @discardableResult
    static func save(_ descriptor: CollectionDescriptor, in db: Database, statements: WriterStatements) throws -> StoredDescriptor? {
        let stored = StoredDescriptor(descriptor)
        let text = try String(decoding: JSONEncoder().encode(stored), as: UTF8.self)
        var previous: StoredDescriptor?
        if let existing = try String.fetchOne(db, sql: "SELECT descriptor FROM collections WHERE name = ?", arguments: [descriptor.name]) {
            guard let old = try? JSONDecoder().decode(StoredDescriptor.self, from: Data(existing.utf8)) else {
                throw OfflineStoreError(.corrupted, "the definition of collection '\(descriptor.name)' cannot be read")
            }
            previous = old
            if old.fields != stored.fields {
                throw OfflineStoreError(.collectionExists, "collection \(descriptor.name) exists with other fields")
            }
            try db.execute(sql: "UPDATE collections SET descriptor = ? WHERE name = ?", arguments: [text, descriptor.name])
        } else {
            try db.execute(sql: "INSERT INTO collections(name, descriptor) VALUES (?, ?)", arguments: [descriptor.name, text])
        }
        for field in descriptor.fields ?? [] where field.isIndexed {
            try db.execute(sql: FieldIndex.createSQL(for: field.name))
            statements.removeAll()  // the schema changed: prepare them again, as GRDB does its cache
        }
        return previous
    }

    /// The stored pull cursor of a collection.
    static func cursor(of collection: String, in db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT cursor FROM collections WHERE name = ?", arguments: [collection])
    }

    /// Stores a collection's pull cursor (nil: the next refresh reads it whole).
    static func setCursor(_ cursor: String?, of collection: String, in db: Database) throws {
        try db.execute(sql: "UPDATE collections SET cursor = ? WHERE name = ?", arguments: [cursor, collection])
    }

    /// What a changed sync scope still has to pull (nil: nothing).
    static func scopeCatchUp(of collection: String, in db: Database) throws -> ScopeCatchUp? {
        guard let text = try String.fetchOne(db, sql: "SELECT scope_catchup FROM collections WHERE name = ?", arguments: [collection])
        else { return nil }
        return try JSONDecoder().decode(ScopeCatchUp.self, from: Data(text.utf8))
    }

    /// Records (or, with nil, clears) what a changed sync scope still has to pull.
    static func setScopeCatchUp(_ catchUp: ScopeCatchUp?, of collection: String, in db: Database) throws {
        let text = try catchUp.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try db.execute(sql: "UPDATE collections SET scope_catchup = ? WHERE name = ?", arguments: [text, collection])
    }

    /// Whether the store already told the app that read access to a collection it keeps was
    /// withdrawn (``ReadAccessRule``): the next refusals only name it in the report.
    static func readAccessLost(of collection: String, in db: Database) throws -> Bool {
        try MetaTable.value(forKey: readAccessLostKey(collection), in: db) != nil
    }

    /// Records (or clears) that read access to a kept collection was withdrawn and told.
    static func setReadAccessLost(_ lost: Bool, of collection: String, in db: Database) throws {
        try MetaTable.setValue(lost ? "1" : nil, forKey: readAccessLostKey(collection), in: db)
    }

    private static func readAccessLostKey(_ collection: String) -> String { "read-access-lost:\(collection)" }

    /// Forgets every collection's pull cursor.
    static func clearCursors(in db: Database) throws {
        try db.execute(sql: "UPDATE collections SET cursor = NULL")
    }
}

/// Reads and writes of the `meta` table (the engine's bookkeeping and the app's metadata),
/// inside the caller's transaction.
enum MetaTable {
    static func value(forKey key: String, in db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
    }

    static func setValue(_ value: String?, forKey key: String, in db: Database) throws {
        if let value {
            try db.execute(sql: "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                           arguments: [key, value])
        } else {
            try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key])
        }
    }

    /// The key of the last completed sync time.
    static let lastSyncKey = "lastSync"

    /// ``ObjectStore/setMetadata(_:forKey:)``: the app's key checked, then one write.
    static func setAppValue(_ value: String?, forKey key: String, in local: LocalStore) throws {
        let stored = try appKey(key)
        try local.write("saving metadata \(key)") { db in try setValue(value, forKey: stored, in: db) }
    }

    /// ``ObjectStore/metadata(forKey:)``: the app's key checked, then one read.
    static func appValue(forKey key: String, in local: LocalStore) throws -> String? {
        let stored = try appKey(key)
        return try local.read("reading metadata \(key)") { db in try value(forKey: stored, in: db) }
    }

    /// The stored key of the app's metadata `key` (``ObjectStore/setMetadata(_:forKey:)``): a
    /// prefix keeps app metadata apart from the engine's own keys.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidOperation`` for an empty or too long key.
    static func appKey(_ key: String) throws -> String {
        guard !key.isEmpty, key.utf8.count <= 256 else {
            throw OfflineStoreError(.invalidOperation, "a metadata key must be 1–256 bytes")
        }
        return "app:" + key
    }
}
