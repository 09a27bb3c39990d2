/// Default implementations of the read requirements, for backends that can only pull.
extension Backend {
    /// Searches for the id and returns the match, if any.
    ///
    /// - Throws: the errors of ``Backend/search(collection:query:continuing:)``.
    public func fetch(collection: String, id: String) async throws -> RemoteChange? {
        var continuation: PullContinuation?
        repeat {
            let page = try await search(collection: collection, query: ServerQuery([.equal("id", .string(id))]),
                                        continuing: continuation)
            if let match = page.changes.first(where: { $0.id == id && $0.record != nil }) { return match }
            continuation = page.next
        } while continuation != nil
        return nil
    }

    /// Pulls the whole collection page by page and keeps the live records that match.
    ///
    /// Each page of the pull becomes one page of the search (possibly with fewer records).
    /// - Throws: ``OfflineStoreError/Code/invalidFieldPath`` or `invalidJSON` for a bad
    ///   query; the errors of ``Backend/pull(_:delivering:)``.
    public func search(collection: String, query: ServerQuery, continuing: PullContinuation?) async throws -> PullPage {
        try query.validate()
        let page = try await pull(PullRequest(collection: collection, continuation: continuing))
        let matches = page.changes.filter { change in change.record.map(query.matches) ?? false }
        return PullPage(changes: matches, cursor: nil, next: page.next)
    }
}
