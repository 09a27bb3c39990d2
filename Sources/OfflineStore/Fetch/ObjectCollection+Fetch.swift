extension ObjectCollection {
    /// Reads one object under a fetch policy (Docs/Policies.md, "Fetch policies"): from the local store, the server, or both.
    ///
    /// Objects fetched from the server update their persistent copy as a refresh would: an
    /// object with a local edit keeps it (a different server version is a conflict settled by
    /// the collection's policy). The answer is then read locally, so it is the local copy when
    /// there is one.
    ///
    /// ```swift
    /// let todo = try await todos.fetch("a", policy: .fromCacheScheduleRefresh) { outcome in
    ///     if case .updated = outcome { /* read "a" again */ }
    /// }
    /// ```
    /// - Parameters:
    ///   - id: the object's id.
    ///   - policy: overrides the collection's and the store's policy.
    ///   - onRefresh: for ``FetchPolicy/fromCacheScheduleRefresh``, called once when the
    ///     background refresh ended, from another task.
    /// - Returns: the object as the app sees it, or nil.
    /// - Throws: ``OfflineStoreError``: `offline` (``FetchPolicy/fromService``, and
    ///   ``FetchPolicy/fromServiceOnCacheMiss`` on a miss), the server's errors, `storeFull`.
    public func fetch(_ id: String, policy: FetchPolicy? = nil,
                      onRefresh: (@Sendable (FetchRefreshOutcome) -> Void)? = nil) async throws -> JSONValue? {
        let descriptor = try descriptor()
        switch effectivePolicy(descriptor, policy) {
        case .fromCache:
            break
        case .fromService:
            _ = try await store.syncEngine.fetchOne(id, of: descriptor)
        case .fromServiceIfOnline:
            try await Self.unlessOffline { _ = try await store.syncEngine.fetchOne(id, of: descriptor) }
        case .fromServiceOnCacheMiss:
            if try object(id) == nil { _ = try await store.syncEngine.fetchOne(id, of: descriptor) }
        case .fromCacheScheduleRefresh:
            let store = self.store
            let name = self.name
            Task {
                do {
                    let changed = try await store.syncEngine.fetchOne(id, of: descriptor)
                    onRefresh?(changed ? .updated(collection: name, ids: [id]) : .unchanged(collection: name))
                } catch {
                    onRefresh?(.failed(OfflineStoreError.sync(error)))
                }
            }
        }
        try? touch([id])
        return try find(id)
    }

    /// Reads objects under a fetch policy; a server read pulls the collection's live records
    /// (page by page) into the store first, then the condition is evaluated locally.
    ///
    /// A cache miss (for ``FetchPolicy/fromServiceOnCacheMiss``) is an empty local answer.
    /// Objects deleted on the server are removed by `refresh` (which sees tombstones), not here.
    ///
    /// - Throws: as ``fetch(_:policy:onRefresh:)``, plus `invalidFieldPath` for the condition.
    public func fetchAll(where condition: Condition? = nil, orderBy: [SortKey] = [], limit: Int? = nil, offset: Int = 0,
                         policy: FetchPolicy? = nil,
                         onRefresh: (@Sendable (FetchRefreshOutcome) -> Void)? = nil) async throws -> [JSONValue] {
        let descriptor = try descriptor()
        let local = { try findAll(where: condition, orderBy: orderBy, limit: limit, offset: offset) }
        let pull = { _ = try await store.syncEngine.pullMatching(ServerQuery(), into: descriptor, progress: nil) }
        switch effectivePolicy(descriptor, policy) {
        case .fromCache:
            break
        case .fromService:
            try await pull()
        case .fromServiceIfOnline:
            try await Self.unlessOffline(pull)
        case .fromServiceOnCacheMiss:
            if try count(where: condition) == 0 { try await pull() }
        case .fromCacheScheduleRefresh:
            let store = self.store
            let name = self.name
            Task {
                do {
                    let result = try await store.syncEngine.pullMatching(ServerQuery(), into: descriptor, progress: nil)
                    onRefresh?(result.changed.isEmpty ? .unchanged(collection: name) : .updated(collection: name, ids: result.changed))
                } catch {
                    onRefresh?(.failed(OfflineStoreError.sync(error)))
                }
            }
        }
        return try local()
    }

    private func effectivePolicy(_ descriptor: CollectionDescriptor, _ override: FetchPolicy?) -> FetchPolicy {
        // A per-call override, else the collection's policy in the configuration, else the store's.
        let configuration = store.configuration
        return descriptor.isLocalOnly ? .fromCache : override ?? configuration.fetchPolicies[name] ?? configuration.fetchPolicy
    }

    /// Runs a server read, treating "cannot reach the server" (offline, timeout) as "use the cache".
    private static func unlessOffline(_ body: () async throws -> Void) async throws {
        do { try await body() } catch let error as OfflineStoreError where error.code == .offline || error.code == .timeout {}
    }
}
