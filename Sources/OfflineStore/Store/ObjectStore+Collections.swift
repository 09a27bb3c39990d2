import Foundation

extension ObjectStore {
    /// Registers a collection, or updates its policies if it exists with the same schema.
    ///
    /// Declared indexed fields get an SQLite index. A custom conflict resolver lives
    /// in memory only: register the collection again after reopening.
    ///
    /// Registering it with another ``CollectionDescriptor/syncScope`` changes what it keeps
    /// in sync: local copies the new scope does not hold are removed now (unless they have
    /// pending edits or a conflict; observers see them go with reason `leftScope`), and the
    /// next refresh pulls, once, the records the new scope adds (Docs/Policies.md, "Sync scopes"). A higher ``CollectionDescriptor/schemaVersion`` migrates every stored copy (Docs/Models.md).
    /// - Throws: ``OfflineStoreError`` `invalidFieldPath` for a bad field declaration,
    ///   `collectionExists` when the collection exists with different fields, `corrupted` when
    ///   its stored definition cannot be read, `modelTooNew` when the store holds a higher schema version.
    public func register(_ descriptor: CollectionDescriptor) throws {
        try syncEngine.register(descriptor)
    }

    /// Every registered collection, sorted by name.
    public func collections() -> [CollectionDescriptor] {
        local.collections.all
    }

    /// The descriptor of a registered collection.
    ///
    /// - Throws: ``OfflineStoreError/Code/unknownCollection``.
    public func descriptor(of name: String) throws -> CollectionDescriptor {
        try local.collections.descriptor(of: name)
    }

    /// Stores a small piece of app metadata in the store file, or removes it (`nil`).
    ///
    /// App metadata lives in the same SQLite file as the objects, apart from the engine's
    /// own bookkeeping, and survives ``resetSyncState(keepingPendingEdits:)`` and ``resetAll()``. Use it for
    /// settings that belong with the data, e.g. which server a store syncs with. Never
    /// store secrets: the file is not encrypted.
    ///
    /// ```swift
    /// try store.setMetadata("https://kinto.example/v1", forKey: "server")
    /// let server = try store.metadata(forKey: "server")
    /// ```
    /// - Parameters:
    ///   - value: the text to store; nil removes the key.
    ///   - key: 1–256 bytes.
    /// - Throws: ``OfflineStoreError`` `invalidOperation` for an empty or too long key,
    ///   or a storage error.
    public func setMetadata(_ value: String?, forKey key: String) throws {
        try MetaTable.setAppValue(value, forKey: key, in: local)
    }

    /// The app metadata stored under `key` with ``setMetadata(_:forKey:)``, or nil.
    ///
    /// - Throws: ``OfflineStoreError`` `invalidOperation` for an empty or too long key,
    ///   or a storage error.
    public func metadata(forKey key: String) throws -> String? {
        try MetaTable.appValue(forKey: key, in: local)
    }

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
    ///   another definition, `invalidOperation` or `invalidFieldPath` for a bad definition,
    ///   `configuration` when the model's field names cannot be read from its `Codable`
    ///   implementation (the message names the field and what to change) or its migrations, `modelTooNew` (see above).
    public func register<M: SyncModel>(_ type: M.Type, fields: [FieldSchema]? = nil, localOnly: Bool = false,
                                       updatePolicy: UpdatePolicy? = nil, conflictPolicy: ConflictPolicy = .preserveConflict) throws {
        try ModelFields.check(M.self)
        try register(CollectionDescriptor(M.collectionName, fields: fields, localOnly: localOnly, updatePolicy: updatePolicy,
                                          conflictPolicy: conflictPolicy).evolving(to: M.schemaVersion, M.migrations))
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

    /// Runs a query on the server and pulls the matching objects into the local store
    /// (RhoConnect `search`), page by page with progress.
    ///
    /// Matching objects update their persistent copies as a refresh would: local edits are
    /// kept, a different server version is a conflict settled by the collection's policy.
    /// Each page is applied in one transaction; pages already applied stay when a later one fails.
    ///
    /// ```swift
    /// let result = try await store.search("todos", query: ServerQuery([.equal("owner", "ana")]),
    ///                                     syncChanges: true) { print($0.processed) }
    /// ```
    /// - Parameters:
    ///   - collection: the collection to search on the server.
    ///   - query: what the server is asked for.
    ///   - syncChanges: flush the queue first, so the server answers with the app's edits applied.
    ///   - progress: called after each applied page.
    /// - Throws: ``OfflineStoreError``: `unknownCollection`, `invalidOperation` (local-only),
    ///   `invalidFieldPath`/`invalidJSON` (query), `offline`, the server's errors, `storeFull`;
    ///   with a ``OfflineStoreError/report`` when `syncChanges` and the flush stopped early.
    @discardableResult
    public func search(_ collection: String, query: ServerQuery, syncChanges: Bool = false,
                       progress: (@Sendable (SearchProgress) -> Void)? = nil) async throws -> SearchResult {
        try await syncEngine.search(collection, query: query, flushingFirst: syncChanges, progress: progress)
    }
}
