extension ModelCollection {
    /// Creates the model's object, or replaces the fields the model knows; members of the
    /// stored object that `M` does not declare are kept.
    ///
    /// So a model older than the server's data never deletes other clients' fields. A
    /// property that is nil (and so not encoded) is removed from the object.
    ///
    /// - Returns: the model as stored, decoded again (an edit that awaits the server returns
    ///   the server's answer).
    /// - Throws: ``OfflineStoreError``: `invalidJSON` for a value JSON cannot hold,
    ///   `invalidID`, `schemaViolation`, `offline` (under `updateIfOnline`), a sync error when
    ///   the edit awaits the server (Docs/Policies.md, "Write modes"), `undecodable` if the
    ///   stored result does not decode.
    @discardableResult
    public func save(_ model: M, policy: UpdatePolicy? = nil) async throws -> M {
        let stored = try await OfflineStoreError.refusingEdit {
            let value = try encoder.encodeForStore(model, "\(name)/\(model.id)")
            return try await store.editEngine.edit(.save(value, keeping: try ModelFields.allNames(of: M.self)), in: name, policy: policy)
        }
        guard let stored else { return model }
        return try OfflineStoreError.afterStoring(.stored) { try decode(stored, id: stored["id"]?.stringValue ?? model.id) }
    }

    /// Creates the model's object; fails if one with its id exists.
    ///
    /// - Throws: ``OfflineStoreError`` `alreadyExists`, and as ``save(_:policy:)``.
    @discardableResult
    public func create(_ model: M, policy: UpdatePolicy? = nil) async throws -> M {
        let stored = try await OfflineStoreError.refusingEdit {
            try await json.create(try encoder.encodeForStore(model, "\(name)/\(model.id)"), policy: policy)
        }
        return try OfflineStoreError.afterStoring(.stored) { try decode(stored, id: stored["id"]?.stringValue ?? model.id) }
    }

    /// Deletes the object with this id (locally a tombstone until the server has the delete).
    ///
    /// - Throws: ``OfflineStoreError`` `notFound`, `offline` (under `updateIfOnline`), or
    ///   a sync error in immediate mode.
    public func delete(_ id: String, policy: UpdatePolicy? = nil) async throws {
        try await json.destroy(id, policy: policy)
    }

    /// Deletes the model's object.
    ///
    /// - Throws: as ``delete(_:policy:)-(String,_)``.
    public func delete(_ model: M, policy: UpdatePolicy? = nil) async throws {
        try await json.destroy(model.id, policy: policy)
    }

    /// Deletes every object matching the predicate in one transaction; returns how many.
    ///
    /// - Throws: as ``findAll(where:orderBy:limit:offset:)-(ModelPredicate<M>?,_,_,_)`` and ``delete(_:policy:)-(String,_)``.
    @discardableResult
    public func deleteAll(where predicate: ModelPredicate<M>? = nil, policy: UpdatePolicy? = nil) async throws -> Int {
        try await OfflineStoreError.refusingEdit { try await json.destroyAll(where: try predicate?.condition.get(), policy: policy) }
    }
}
