extension ObjectStore {
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
        let descriptor = try descriptor(of: collection)
        guard !descriptor.isLocalOnly else {
            throw OfflineStoreError(.invalidOperation, "\(collection) is local-only: it has no server to search")
        }
        try query.validate()
        if syncChanges { try await flush() }
        return try await fetchingEngine(collection).pullMatching(query, into: descriptor, progress: progress)
    }
}
