/// The pull of a collection the store holds no server copy of.
extension Backend {
    /// Fetches one page of changes since `cursor`, with or without deletions
    /// (``Backend/pull(collection:since:continuing:includingDeletions:)``).
    ///
    /// The default is ``Backend/pull(collection:since:continuing:)``: deletions included.
    public func pull(collection: String, since cursor: String?, continuing: PullContinuation?,
                     includingDeletions: Bool) async throws -> PullPage {
        try await pull(collection: collection, since: cursor, continuing: continuing)
    }
}
