
extension SyncEngine {
    /// The backend, or `offline` when the store has none or was forced offline.
    func reachableBackend(for collection: String) throws -> any Backend {
        let backend = try connected("fetch \(collection) from", missing: .offline)
        if isForcedOffline { throw OfflineStoreError(.offline, "the store is set offline") }
        return backend
    }

    /// Applies records fetched from the server like a refresh does (local edits kept,
    /// conflicts settled by policy) in one transaction, with the size limit; records their use.
    ///
    /// - Returns: the ids whose stored copy changed.
    /// - Throws: ``OfflineStoreError/Code/storeFull`` (nothing applied) or a storage error.
    func applyFetched(_ changes: [RemoteChange], to collection: CollectionDescriptor) throws -> (changed: [String], report: SyncReport) {
        let changes = IncomingRecords.upgrade(changes, of: collection)   // records of older releases, in the current shape
        var notices = AppNotices()
        var (changed, report) = try write("applying fetched objects of \(collection.name)") { db in
            let sizeBefore = try local.sizeBeforeWrite(db)
            var report = SyncReport()
            var changed: [String] = []
            for change in changes {
                let pulled = report.pulled
                try applyRemoteChange(change, to: collection, report: &report, notices: &notices, in: db)
                if report.pulled > pulled { changed.append(change.id) }
            }
            try local.recordUse(db, collection: collection.name, ids: changes.map(\.id))
            try local.enforceStoreSize(db, before: sizeBefore, protecting: EvictionGuard(changes[...], in: collection.name))
            return (changed, report)
        }
        try deliver(notices, report: &report)
        return (changed, report)
    }

    /// Fetches one object from the server and applies it; a synced object the server no
    /// longer has is removed (one with a local edit is left for the next refresh to settle).
    ///
    /// - Returns: whether the stored copy changed.
    func fetchOne(_ id: String, of collection: CollectionDescriptor) async throws -> Bool {
        let backend = try reachableBackend(for: collection.name)
        return try await withSyncLock {
            do {
                try await backend.prepare(collection: collection.name)
                if let change = try await backend.fetch(collection: collection.name, id: id) {
                    guard change.id == id else {
                        throw OfflineStoreError(.badResponse, "the server answered \(collection.name)/\(id) with another id")
                    }
                    return try !applyFetched([change], to: collection).changed.isEmpty
                }
                return try write("removing \(collection.name)/\(id), gone from the server") { db in
                    guard let row = try ObjectRow.fetch(db, collection: collection.name, id: id),
                          !row.dirty, row.state == .synced, row.serverVersion != nil else { return false }
                    try row.delete(db)
                    return true
                }
            } catch {
                throw OfflineStoreError.sync(error)
            }
        }
    }

    /// ``ObjectStore/search(_:query:syncChanges:progress:)``: after a flush when
    /// `flushingFirst`, pulls the records matching `query` into the store.
    func search(_ name: String, query: ServerQuery, flushingFirst: Bool,
                progress: (@Sendable (SearchProgress) -> Void)?) async throws -> SearchResult {
        let descriptor = try descriptor(of: name)
        guard !descriptor.isLocalOnly else {
            throw OfflineStoreError(.invalidOperation, "collection \(name) is local-only: it has no server to search")
        }
        try query.validate()
        if flushingFirst { _ = try await flush(honouringRetryDelays: SyncContext.insideAutoSyncAction) }
        return try await pullMatching(query, into: descriptor, progress: progress)
    }

    /// Pulls every server record matching `query` into the store, page by page (one
    /// transaction per page), calling `progress` after each page.
    ///
    /// - Returns: the matching ids and the ids whose stored copy changed.
    func pullMatching(_ query: ServerQuery, into collection: CollectionDescriptor,
                      progress: (@Sendable (SearchProgress) -> Void)?) async throws -> SearchResult {
        try query.validate()
        let backend = try reachableBackend(for: collection.name)
        return try await withSyncLock {
            var result = SearchResult(collection: collection.name)
            do {
                try await backend.prepare(collection: collection.name)
                var continuation: PullContinuation?
                repeat {
                    let page = try await backend.search(collection: collection.name, query: query, continuing: continuation)
                    let (changed, report) = try applyFetched(page.changes, to: collection)
                    result.ids += page.changes.map(\.id)
                    result.changed += changed
                    result.conflictsDetected += report.conflictsDetected
                    result.pages += 1
                    progress?(SearchProgress(collection: collection.name, processed: result.ids.count, total: page.total))
                    continuation = page.next
                } while continuation != nil
            } catch {
                throw OfflineStoreError.sync(error)
            }
            return result
        }
    }
}
