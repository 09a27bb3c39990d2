extension Backend {
    /// Calls ``pull(collection:since:continuing:scope:)`` (with a scope) or
    /// ``pull(collection:since:continuing:includingDeletions:)`` and returns the whole page:
    /// for backends that read a page at once.
    public func pull(collection: String, since cursor: String?, continuing: PullContinuation?, includingDeletions: Bool,
                     scope: ServerQuery?, delivering deliver: ([RemoteChange]) async throws -> Void) async throws -> PullPage {
        if let scope { return try await pull(collection: collection, since: cursor, continuing: continuing, scope: scope) }
        return try await pull(collection: collection, since: cursor, continuing: continuing, includingDeletions: includingDeletions)
    }
}
