
/// A handle on one collection of a store: local reads and edits.
///
/// Reads never touch the network. Edits follow the store's write mode and the
/// collection's update policy (overridable per call with `policy:`).
public struct ObjectCollection: Sendable {
    /// The store that holds the collection.
    public let store: ObjectStore
    /// The collection's name.
    public let name: String

    /// The collection's descriptor.
    ///
    /// - Throws: ``OfflineStoreError/Code/unknownCollection``.
    public func descriptor() throws -> CollectionDescriptor { try store.descriptor(of: name) }

    // MARK: Reads

    /// The object as the app sees it: the local copy if any, else the persistent copy;
    /// nil if missing or locally deleted.
    public func find(_ id: String) throws -> JSONValue? {
        try object(id)?.value
    }

    /// The object with all its copies and its sync state, or nil (a local delete is returned).
    public func object(_ id: String) throws -> StoredObject? {
        _ = try descriptor()
        return try store.local.storedObject(collection: name, id: id)
    }

    /// The server's copy of the object (OMC `jsonObjectPersistentState`), or nil.
    public func persistent(_ id: String) throws -> JSONValue? {
        try object(id)?.persistent
    }

    /// The first object matching the condition in the given order, or nil.
    public func findFirst(where condition: Condition? = nil, orderBy: [SortKey] = []) throws -> JSONValue? {
        try findAll(where: condition, orderBy: orderBy, limit: 1).first
    }

    /// The objects matching the condition, ordered (then by id), paged by limit and offset.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidFieldPath`` for a field path that
    ///   cannot be queried.
    public func findAll(where condition: Condition? = nil, orderBy: [SortKey] = [],
                        limit: Int? = nil, offset: Int = 0) throws -> [JSONValue] {
        try objects(where: condition, orderBy: orderBy, limit: limit, offset: offset).compactMap(\.value)
    }

    /// The stored objects (with all copies) matching the condition and, optionally, a sync state.
    ///
    /// Locally deleted objects are included only when `state` is ``SyncState/deleted``.
    public func objects(where condition: Condition? = nil, state: SyncState? = nil, orderBy: [SortKey] = [],
                        limit: Int? = nil, offset: Int = 0) throws -> [StoredObject] {
        let query = try selectQuery(where: condition, state: state, orderBy: orderBy, limit: limit, offset: offset)
        return try store.local.read("querying \(name)") { db in try query.rows(db).map(\.publicObject) }
    }

    /// The query that ``objects(where:state:orderBy:limit:offset:)`` runs.
    func selectQuery(where condition: Condition?, state: SyncState?, orderBy: [SortKey],
                     limit: Int?, offset: Int) throws -> ObjectQuery {
        try ObjectQuery.select(try descriptor(), where: condition, state: state, orderBy: orderBy, limit: limit, offset: offset)
    }

    /// How many objects match the condition (locally deleted ones excluded).
    public func count(where condition: Condition? = nil) throws -> Int {
        let query = try ObjectQuery.count(try descriptor(), where: condition)
        return try store.local.read("counting \(name)") { db in try query.number(db) }
    }

    /// Whether the collection has edits the server has not confirmed.
    public func isChanged() throws -> Bool {
        try store.local.hasQueueEntries(collection: name)
    }

    /// Whether the object has edits the server has not confirmed.
    public func isChanged(_ id: String) throws -> Bool {
        try store.local.hasQueueEntries(collection: name, id: id)
    }

    // MARK: Edits

    /// Creates an object; its `"id"` is generated (a lowercase UUID) when absent.
    ///
    /// - Returns: the object as stored, with its `id`; in immediate mode, once the server
    ///   applied it, the server's copy under the id the server assigned (REST servers).
    /// - Throws: ``OfflineStoreError`` `alreadyExists`, `invalidID`, `invalidJSON`,
    ///   `schemaViolation`, `offline` (under `updateIfOnline`), or a sync error in immediate mode.
    @discardableResult
    public func create(_ object: JSONValue, policy: UpdatePolicy? = nil) async throws -> JSONValue {
        try await store.editEngine.edit(.create(object), in: name, policy: policy) ?? object
    }

    /// Creates the object, or replaces it if it exists (OMC `save`).
    @discardableResult
    public func save(_ object: JSONValue, policy: UpdatePolicy? = nil) async throws -> JSONValue {
        try await store.editEngine.edit(.save(object), in: name, policy: policy) ?? object
    }

    /// Replaces an existing object's fields with `object`'s.
    ///
    /// - Throws: ``OfflineStoreError/Code/notFound`` when the object does not exist.
    @discardableResult
    public func replace(_ id: String, with object: JSONValue, policy: UpdatePolicy? = nil) async throws -> JSONValue {
        try await store.editEngine.edit(.replace(id: id, with: object), in: name, policy: policy) ?? object
    }

    /// Merges fields into an existing object; a `null` value removes the field.
    @discardableResult
    public func patch(_ id: String, _ fields: [String: JSONValue], policy: UpdatePolicy? = nil) async throws -> JSONValue {
        try await store.editEngine.edit(.patch(id: id, fields: fields), in: name, policy: policy) ?? .null
    }

    /// Deletes an object (locally a tombstone until the server has the delete).
    public func destroy(_ id: String, policy: UpdatePolicy? = nil) async throws {
        _ = try await store.editEngine.edit(.destroy(id: id), in: name, policy: policy)
    }

    /// Deletes every object matching the condition in one transaction; returns how many.
    @discardableResult
    public func destroyAll(where condition: Condition? = nil, policy: UpdatePolicy? = nil) async throws -> Int {
        try await OfflineStoreError.refusingEdit {
            let ids = try objects(where: condition).map(\.id)
            try await store.editEngine.transaction(policy: policy) { tx in
                for id in ids { try tx.destroy(id, in: name) }
            }
            return ids.count
        }
    }
}
