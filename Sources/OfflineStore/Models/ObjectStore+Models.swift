extension ObjectStore {
    /// Registers the collection of a model type, with the same options as ``CollectionDescriptor``.
    ///
    /// ```swift
    /// try store.register(Todo.self, conflictPolicy: .merge)
    /// ```
    ///
    /// Leave `fields` nil (a property bag) unless every client writes only the declared
    /// fields: a fixed schema refuses members the model does not declare, which
    /// ``ModelCollection/save(_:policy:)`` otherwise keeps.
    ///
    /// - Throws: ``OfflineStoreError`` `collectionExists` when the name is registered with
    ///   another definition, `invalidOperation` or `invalidFieldPath` for a bad definition.
    public func register<M: SyncModel>(
        _ type: M.Type,
        fields: [FieldSchema]? = nil,
        localOnly: Bool = false,
        updatePolicy: UpdatePolicy? = nil,
        conflictPolicy: ConflictPolicy = .preserveConflict
    ) throws {
        try register(CollectionDescriptor(M.collectionName, fields: fields, localOnly: localOnly,
                                          updatePolicy: updatePolicy, conflictPolicy: conflictPolicy))
    }

    /// The typed handle on a model's collection (register it first).
    ///
    /// ```swift
    /// let todos = store.collection(Todo.self)
    /// let milk = try await todos.save(Todo(id: "milk", title: "Buy milk"))
    /// ```
    public func collection<M: SyncModel>(_ type: M.Type) -> ModelCollection<M> {
        ModelCollection(store: self)
    }
}
