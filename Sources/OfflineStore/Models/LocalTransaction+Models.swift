extension LocalTransaction {
    /// Creates or replaces a model's object inside the transaction, keeping the members
    /// the model does not know (as ``ModelCollection/save(_:policy:)`` does).
    ///
    /// ```swift
    /// try await store.transaction { tx in
    ///     for todo in imported { try tx.save(todo) }
    /// }
    /// ```
    ///
    /// - Throws: `EncodingError` for a value JSON cannot hold; ``OfflineStoreError``
    ///   `invalidID`, `schemaViolation`, `unknownCollection`; a storage error.
    public func save<M: SyncModel>(_ model: M) throws {
        try OfflineStoreError.refusingEdit {
            let value = try ModelEncoder(coding: M.coding).encodeForStore(model, "\(M.collectionName)/\(model.id)")
            _ = try apply(.save(value, keeping: try ModelFields.allNames(of: M.self)), in: M.collectionName)
        }
    }

    /// Deletes a model's object inside the transaction.
    ///
    /// - Throws: ``OfflineStoreError`` `notFound`, `unknownCollection`; a storage error.
    public func delete<M: SyncModel>(_ type: M.Type, id: String) throws {
        try destroy(id, in: M.collectionName)
    }

    /// Reads a model as the app sees it, including this transaction's edits; nil if absent.
    ///
    /// - Throws: ``OfflineStoreError`` `undecodable` when the object does not decode as `M`
    ///   (``OfflineStoreError/undecodableRecord`` holds it); a storage error.
    public func find<M: SyncModel>(_ type: M.Type, id: String) throws -> M? {
        guard let value = try find(id, in: M.collectionName) else { return nil }
        do {
            return try ModelDecoder(coding: M.coding).decode(M.self, from: value)
        } catch let error as DecodingError {
            throw UndecodableRecord(collection: M.collectionName, id: id, json: value, error: error).thrown
        }
    }
}
