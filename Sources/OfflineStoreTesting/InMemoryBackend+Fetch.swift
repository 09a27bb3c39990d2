import OfflineStore

extension InMemoryBackend {
    /// The live record with this id, if any; counted (and faulted) as a pull.
    ///
    /// - Throws: `invalidID`, or the error of an injected fault.
    public func fetch(collection: String, id: String) async throws -> RemoteChange? {
        try await playReadFault(collection: collection)
        try validate(id: id)
        return serverRecord(collection: collection, id: id).map { RemoteChange(id: id, record: $0.record, version: $0.version) }
    }

    /// The live records matching the query, by id, a page (``Configuration/pageSize``) at a time;
    /// counted (and faulted) as a pull.
    ///
    /// - Throws: `invalidFieldPath`/`invalidJSON` for a bad query, `invalidOperation` for a
    ///   continuation of another search, or the error of an injected fault.
    public func search(collection: String, query: ServerQuery, continuing: PullContinuation?) async throws -> PullPage {
        try await playReadFault(collection: collection)
        try query.validate()
        let offset: Int
        if let continuing {
            guard continuing.token.hasPrefix("search:"), let n = Int(continuing.token.dropFirst(7)), n >= 0 else {
                throw OfflineStoreError(.invalidOperation, "the continuation does not belong to a search")
            }
            offset = n
        } else {
            offset = 0
        }
        let matches = allRecords(collection: collection).filter { query.matches($0.value) }.sorted { $0.key < $1.key }
        let page = matches.dropFirst(offset).prefix(configuration.pageSize)
        let changes = page.compactMap { entry in
            serverRecord(collection: collection, id: entry.key).map { RemoteChange(id: entry.key, record: $0.record, version: $0.version) }
        }
        let end = offset + page.count
        return PullPage(changes: changes, cursor: nil, next: end < matches.count ? PullContinuation(token: "search:\(end)") : nil,
                        total: matches.count)
    }

    private func playReadFault(collection: String) async throws {
        let fault = state.withLock { s in
            s.log.append(.pull(collection: collection, since: nil, continuing: nil))
            return s.faults.takeCallFault(for: .pull)
        }
        _ = try await play(fault, on: .pull)
        try validate(id: collection)
    }
}
