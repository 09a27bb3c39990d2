extension ModelCollection {
    /// The collection's conflicted objects, with base, local and server copies decoded as `M`.
    ///
    /// Conflicts are stored, so they survive restarts until resolved.
    ///
    /// - Throws: a storage error.
    public func conflicts() throws -> [ModelConflict<M>] {
        try store.conflicts(in: name).map { ModelConflict($0) }
    }

    /// Resolves a conflict: `.keepLocal` resends the local edit on the server's version,
    /// `.keepServer` drops it, `.model(m)` queues `m` as an update on the server's version
    /// (fields `m` does not know come from the server's copy), `.preserve` does nothing.
    /// Send with `flush` or `sync`.
    ///
    /// - Throws: ``OfflineStoreError`` `notFound`, `notConflicted`, a validation error,
    ///   or `EncodingError` for a model JSON cannot hold.
    public func resolve(_ conflict: ModelConflict<M>, with resolution: ModelResolution<M>) throws {
        try OfflineStoreError.refusingEdit { try store.resolve(name, id: conflict.id, with: try resolution.resolution(of: conflict.json)) }
    }

    /// Resolves a conflict with a model (for example one built by
    /// ``ModelConflict/merged(choosing:otherwise:)``); fields it does not know are taken
    /// from the server's copy.
    ///
    /// - Throws: as ``resolve(_:with:)-(_,ModelResolution<M>)``.
    public func resolve(_ conflict: ModelConflict<M>, with model: M) throws {
        try resolve(conflict, with: .model(model))
    }
}
