import GRDB

/// The stored row of one object, as the write paths change it.
struct ObjectRow: Sendable {
    var collection: String
    var id: String
    var persistent: JSONValue?
    var local: JSONValue?
    /// Whether a local edit exists; `dirty && local == nil` is a local delete (tombstone).
    var dirty: Bool
    var base: JSONValue?
    var baseVersion: String?
    var serverVersion: String?
    var state: SyncState
    var localRev: Int64

    static let columns = "collection, id, persistent, local, dirty, base, base_version, server_version, state, local_rev"

    init(collection: String, id: String) {
        self.collection = collection
        self.id = id
        dirty = false
        state = .synced
        localRev = 0
    }

    init(row: Row) throws {
        collection = row["collection"]
        id = row["id"]
        persistent = try ObjectRow.decode(row["persistent"], column: "persistent")
        local = try ObjectRow.decode(row["local"], column: "local")
        dirty = row["dirty"]
        base = try ObjectRow.decode(row["base"], column: "base")
        baseVersion = row["base_version"]
        serverVersion = row["server_version"]
        let stateName: String = row["state"]
        guard let s = SyncState(rawValue: stateName) else {
            throw OfflineStoreError(.corrupted, "object \(id) has an unknown state '\(stateName)'")
        }
        state = s
        localRev = row["local_rev"]
    }

    private static func decode(_ text: String?, column: String) throws -> JSONValue? {
        guard let text else { return nil }
        do { return try JSONValue(parsing: text) } catch {
            throw OfflineStoreError(.corrupted, "a stored \(column) copy cannot be read: \(error)")
        }
    }

    /// What a read returns: nil for a local delete.
    var effective: JSONValue? { dirty ? local : persistent }
    var isLocallyDeleted: Bool { dirty && local == nil }
    /// Whether the object exists for the app (has an effective value).
    var exists: Bool { effective != nil }

    var publicObject: StoredObject {
        StoredObject(
            collection: collection, id: id, local: dirty ? local : nil, isLocallyDeleted: isLocallyDeleted,
            persistent: persistent, base: base, baseVersion: baseVersion, serverVersion: serverVersion, state: state)
    }

    /// Recomputes the state from the copies, keeping `conflicted` and `failed`, which
    /// only sync outcomes and the app's actions set and clear.
    mutating func deriveState() {
        if state == .conflicted || state == .failed { return }
        if !dirty { state = .synced }
        else if local == nil { state = .deleted }
        else if persistent == nil && serverVersion == nil { state = .created }
        else { state = .updated }
    }

    /// Starts a local edit: remembers the copy and version the edit is based on.
    mutating func beginLocalEdit() {
        if !dirty {
            base = persistent
            baseVersion = serverVersion
            dirty = true
        }
        localRev += 1
    }

    /// Drops the local edit: the object equals its persistent copy again.
    mutating func clearLocalEdit() {
        dirty = false
        local = nil
        base = nil
        baseVersion = nil
        if state != .failed { state = .synced }
        deriveState()
    }

    /// The stored row, or nil; `writer` is the store's writer cache on the local edit path.
    static func fetch(_ db: Database, collection: String, id: String, on writer: WriterStatements? = nil) throws -> ObjectRow? {
        let statement = try HotStatement.read(db, .fetchObject, on: writer)
        try statement.bind(1, collection)
        try statement.bind(2, id)
        return try statement.first { try ObjectRow(row: $0) }
    }

    /// Reads a row stepped by ``HotStatement`` (columns in the order of ``columns``).
    private init(row: HotRow) throws {
        guard let collection = row.text(0), let id = row.text(1), let stateName = row.text(8) else {
            throw OfflineStoreError(.corrupted, "an object row has no collection, id or state")
        }
        self.collection = collection
        self.id = id
        persistent = try ObjectRow.decode(row.text(2), column: "persistent")
        local = try ObjectRow.decode(row.text(3), column: "local")
        dirty = row.int(4) != 0
        base = try ObjectRow.decode(row.text(5), column: "base")
        baseVersion = row.text(6)
        serverVersion = row.text(7)
        guard let s = SyncState(rawValue: stateName) else {
            throw OfflineStoreError(.corrupted, "object \(id) has an unknown state '\(stateName)'")
        }
        state = s
        localRev = row.int(9)
    }

    /// Inserts or updates the row; `writer` is the store's writer cache on the local edit path.
    func save(_ db: Database, on writer: WriterStatements? = nil) throws {
        let statement = try HotStatement.write(db, .saveObject, on: writer)
        try bindColumns(of: statement)
        try statement.execute()
    }

    /// Inserts the row of a new object's first local edit (no server copy, base or server
    /// version) if no row of its object exists; returns whether it did. One index descent,
    /// where a probe and then an insert take two (a new object's create).
    ///
    /// Only the columns such a row sets are bound; the others take their defaults (NULL), as
    /// ``save(_:on:)`` would write them: four binds fewer than the full row.
    func insertIfNew(_ db: Database, on writer: WriterStatements) throws -> Bool {
        assert(persistent == nil && base == nil && baseVersion == nil && serverVersion == nil,
                     "insertIfNew writes a new object's local copy only")
        let statement = try HotStatement.write(db, .insertNewLocalObject, on: writer)
        try statement.bind(1, collection)
        try statement.bind(2, id)
        try statement.bindJSON(3, local)
        try statement.bind(4, dirty ? 1 : 0 as Int64)
        try statement.bind(5, state.rawValue)
        try statement.bind(6, localRev)
        try statement.execute()
        return statement.changes == 1
    }

    /// Binds the row's columns in the order of ``columns``.
    private func bindColumns(of statement: HotStatement) throws {
        try statement.bind(1, collection)
        try statement.bind(2, id)
        try statement.bindJSON(3, persistent)
        try statement.bindJSON(4, local)
        try statement.bind(5, dirty ? 1 : 0 as Int64)
        try statement.bindJSON(6, base)
        try statement.bind(7, baseVersion)
        try statement.bind(8, serverVersion)
        try statement.bind(9, state.rawValue)
        try statement.bind(10, localRev)
    }

    /// Inserts a new synced object from the server copy's canonical JSON text (``CanonicalJSON``,
    /// holding its `id`), without building a tree, unless a row of the object exists: the row
    /// ``save(_:on:)`` would write for `ObjectRow(collection:id:)` with that persistent copy and
    /// version. Returns whether it inserted; one index descent, where a probe first takes two.
    static func insertServerCopyIfNew(_ db: Database, collection: String, id: String, text: [UInt8], version: String,
                                      on writer: WriterStatements) throws -> Bool {
        // The columns it leaves out take their defaults: no local copy, base or base version,
        // not dirty, local revision 0 (as `ObjectRow(collection:id:)` has them).
        let statement = try HotStatement.write(db, .insertNewServerCopy, on: writer)
        try statement.bind(1, collection)
        try statement.bind(2, id)
        try statement.bindJSONText(3, text)
        try statement.bind(4, version)
        try statement.bind(5, SyncState.synced.rawValue)
        try statement.execute()
        return statement.changes == 1
    }

    func delete(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM objects WHERE collection = ? AND id = ?", arguments: [collection, id])
    }

    /// Every object of a collection that the server has a copy of, by id.
    static func withServerCopy(_ db: Database, in collection: String) throws -> [ObjectRow] {
        try Row.fetchAll(db, sql: "SELECT \(columns) FROM objects WHERE collection = ? AND persistent IS NOT NULL ORDER BY id",
                         arguments: [collection]).map(ObjectRow.init(row:))
    }

    /// Whether the store holds any object of a collection.
    static func any(_ db: Database, in collection: String) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM objects WHERE collection = ?)", arguments: [collection]) ?? false
    }

    /// The conflicted objects, optionally of one collection, by collection and id.
    static func conflicted(_ db: Database, in collection: String?) throws -> [ObjectRow] {
        var sql = "SELECT \(columns) FROM objects WHERE state = 'conflicted'"
        var arguments: StatementArguments = []
        if let collection { sql += " AND collection = ?"; arguments += [collection] }
        sql += " ORDER BY collection, id"
        return try Row.fetchAll(db, sql: sql, arguments: arguments).map(ObjectRow.init(row:))
    }

    // MARK: - Whole collections

    /// Removes a collection's server knowledge (and, unless kept, its unsent edits).
    static func dropCollection(_ db: Database, _ name: String, keepingPendingEdits: Bool) throws {
        if keepingPendingEdits {
            try db.execute(sql: """
                DELETE FROM objects WHERE collection = ? AND state = 'synced' AND dirty = 0
                AND NOT EXISTS (SELECT 1 FROM queue WHERE queue.collection = objects.collection AND queue.object_id = objects.id)
                """, arguments: [name])
        } else {
            try db.execute(sql: "DELETE FROM objects WHERE collection = ?", arguments: [name])
            try db.execute(sql: "DELETE FROM queue WHERE collection = ?", arguments: [name])
        }
        try CollectionsTable.setCursor(nil, of: name, in: db)
    }

    /// Deletes every object of every collection.
    static func deleteAll(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM objects")
    }

    /// How many objects of a collection the server had (they hold a server version).
    static func countSynced(_ db: Database, in collection: String) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM objects WHERE collection = ? AND server_version IS NOT NULL",
                         arguments: [collection]) ?? 0
    }

    /// Whether the store holds any object of a collection that the server had.
    static func anySynced(_ db: Database, in collection: String) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM objects WHERE collection = ? AND server_version IS NOT NULL)",
                          arguments: [collection]) ?? false
    }
}
