/// Pulls by a sync scope (``CollectionDescriptor/syncScope``), and the light pull that finds
/// records that left it. The defaults work on any backend by pulling everything and
/// filtering here; ``KintoBackend`` and ``RESTBackend`` ask the server instead.
extension Backend {
    /// Fetches one page of the changes since `cursor` of the records matching `scope`,
    /// tombstones included where the server returns them (the departure pull,
    /// ``pull(collection:since:continuing:fields:)``, finds the rest).
    ///
    /// Same cursor and paging rules as ``pull(collection:since:continuing:)``. The default
    /// pulls every change and keeps the tombstones and the records that match.
    public func pull(collection: String, since cursor: String?, continuing: PullContinuation?,
                     scope: ServerQuery) async throws -> PullPage {
        try await pull(collection: collection, since: cursor, continuing: continuing).keeping(scope)
    }

    /// Fetches one page of every change since `cursor` with only `fields` of each record
    /// (besides its id and version), and tombstones: what the engine needs to tell which
    /// local objects left a sync scope. The records are partial: the engine never stores them.
    ///
    /// The default is ``pull(collection:since:continuing:)`` (whole records).
    public func pull(collection: String, since cursor: String?, continuing: PullContinuation?,
                     fields: [String]) async throws -> PullPage {
        try await pull(collection: collection, since: cursor, continuing: continuing)
    }
}

extension PullPage {
    /// The page with only the records matching `scope`, and every tombstone (the engine
    /// cannot tell whether a deleted record was in the scope): how a backend whose server
    /// cannot filter applies a sync scope.
    func keeping(_ scope: ServerQuery) -> PullPage {
        var page = self
        page.changes = changes.filter { change in change.record.map(scope.matches) ?? true }
        return page
    }
}
