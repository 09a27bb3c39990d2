/// The kind of a failed queue entry, and which sync failures stay with one collection
/// (pure, no I/O; Docs/Auth.md, "Sharing and lost access").
enum FailureRule {
    /// The kind of a failed entry from the status the server answered.
    static func failure(status: Int?) -> QueueEntry.Failure {
        status == 403 ? .forbidden : .rejected
    }

    /// Whether an error met on one collection stops only that collection (the run goes on
    /// with the others, the report names it) rather than the whole run: a 403 is about
    /// this collection; a 401 (sign in again), being offline, a timeout, a server error or a
    /// cancellation is about every collection.
    static func isCollectionRefusal(_ error: OfflineStoreError) -> Bool {
        error.code == .forbidden
    }
}
