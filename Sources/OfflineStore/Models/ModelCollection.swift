/// A typed handle on a model's collection: reads, edits, queries, conflicts and live
/// queries as values of `M`.
///
/// It works over the same objects as the JSON API (``json``): both can be used side by
/// side. Reads never touch the network; edits follow the store's write mode and the
/// collection's update policy.
///
/// ```swift
/// let todos = store.collection(Todo.self)
/// try await todos.save(Todo(id: "milk", title: "Buy milk"))
/// let open = try todos.findAll(where: \.done == false, orderBy: [.ascending(\.title)])
/// ```
public struct ModelCollection<M: SyncModel>: Sendable {
    /// The store that holds the collection.
    public let store: ObjectStore

    /// The JSON API of the same collection.
    public var json: ObjectCollection { store.collection(M.collectionName) }

    /// The collection's name (``SyncModel/collectionName``).
    public var name: String { M.collectionName }

    var decoder: ModelDecoder { ModelDecoder(coding: M.coding) }
    var encoder: ModelEncoder { ModelEncoder(coding: M.coding) }

    // MARK: Reads

    /// The model with this id as the app sees it (local copy, else server copy); nil if
    /// missing or locally deleted.
    ///
    /// - Throws: ``OfflineStoreError``: `undecodable` when the stored object does not decode
    ///   as `M` (it stays stored; the JSON API still reads it; the error's
    ///   ``OfflineStoreError/undecodableRecord`` holds its id, raw JSON and the
    ///   `DecodingError`), `unknownCollection`.
    public func find(_ id: String) throws -> M? {
        guard let json = try json.find(id) else { return nil }
        return try decode(json, id: id)
    }

    /// The models matching the predicate, ordered (then by id), paged by limit and offset;
    /// objects that do not decode are listed in ``ModelReadResult/undecodable``.
    ///
    /// The query runs in SQLite (see ``ModelPredicate``).
    ///
    /// - Throws: ``OfflineStoreError`` `invalidFieldPath` for a key path that is not a
    ///   stored property, `unknownCollection`, or a storage error.
    public func findAll(where predicate: ModelPredicate<M>? = nil, orderBy: [ModelSort<M>] = [],
                        limit: Int? = nil, offset: Int = 0) throws -> ModelReadResult<M> {
        try findAll(ModelQuery(where: predicate, orderBy: orderBy, limit: limit, offset: offset))
    }

    /// The models a query matches, with the objects that do not decode.
    ///
    /// - Throws: as ``findAll(where:orderBy:limit:offset:)-(ModelPredicate<M>?,_,_,_)``.
    public func findAll(_ query: ModelQuery<M>) throws -> ModelReadResult<M> {
        let (condition, sort) = try query.compiled()
        let values = try json.findAll(where: condition, orderBy: sort, limit: query.limit, offset: query.offset)
        return decodeAll(values)
    }

    /// The first model matching the predicate in the given order, or nil; an object that
    /// does not decode is skipped.
    ///
    /// - Throws: as ``findAll(where:orderBy:limit:offset:)-(ModelPredicate<M>?,_,_,_)``.
    public func findFirst(where predicate: ModelPredicate<M>? = nil, orderBy: [ModelSort<M>] = []) throws -> M? {
        try findAll(where: predicate, orderBy: orderBy).first
    }

    /// How many models match the predicate: exactly the models
    /// ``findAll(where:orderBy:limit:offset:)-(ModelPredicate<M>?,_,_,_)`` returns (locally deleted objects and objects
    /// that do not decode as `M` are not counted).
    ///
    /// It decodes every matching object to know. `findAll(where:).undecodable` lists the
    /// matching objects that do not decode; ``json``'s `count(where:)` counts every stored
    /// object in SQLite without decoding, undecodable ones included.
    ///
    /// - Throws: as ``findAll(where:orderBy:limit:offset:)-(ModelPredicate<M>?,_,_,_)``.
    public func count(where predicate: ModelPredicate<M>? = nil) throws -> Int {
        try findAll(where: predicate).count
    }

    /// The sync status of one object, or nil when the store holds no object with this id:
    /// never created, or deleted and that delete already synced (a delete still queued is
    /// `.pending`). An object that does not decode as `M` still has a status.
    /// (``LiveQuery/status(of:)`` takes a model of its result, which always has one.)
    ///
    /// - Throws: ``OfflineStoreError`` `unknownCollection`, or a storage error.
    public func status(of id: String) throws -> ModelSyncStatus? {
        try json.object(id).map { ModelSyncStatus($0.state) }
    }

    // MARK: Decoding

    func decode(_ value: JSONValue, id: String) throws(OfflineStoreError) -> M {
        do throws(UndecodableRecord) { return try decodeOrReport(value, id: id) } catch { throw error.thrown }
    }

    /// Decodes a stored object, or the record saying why it does not decode.
    func decodeOrReport(_ value: JSONValue, id: String) throws(UndecodableRecord) -> M {
        do {
            return try decoder.decode(M.self, from: value)
        } catch let error as DecodingError {
            // A record whose migration threw is reported with the migration's error.
            if let failure = MigrationChain(version: M.schemaVersion, migrations: M.migrations).failure(of: value, collection: name) {
                throw UndecodableRecord(collection: name, id: id, json: value, error: failure.decodingError)
            }
            throw UndecodableRecord(collection: name, id: id, json: value, error: error)
        } catch {
            throw UndecodableRecord(collection: name, id: id, json: value,
                                    error: .dataCorrupted(.init(codingPath: [], debugDescription: "\(error)", underlyingError: error)))
        }
    }

    /// Decodes a copy that may be absent (a conflict's side, a deleted object).
    func decodeIfPresent(_ value: JSONValue?, id: String) throws(UndecodableRecord) -> M? {
        guard let value else { return nil }
        return try decodeOrReport(value, id: id)
    }

    func decodeAll(_ values: [JSONValue]) -> ModelReadResult<M> {
        var models: [M] = []
        var undecodable: [UndecodableRecord] = []
        models.reserveCapacity(values.count)
        for value in values {
            do throws(UndecodableRecord) {
                models.append(try decodeOrReport(value, id: value["id"]?.stringValue ?? ""))
            } catch {
                undecodable.append(error)
            }
        }
        return ModelReadResult(models: models, undecodable: undecodable)
    }
}
