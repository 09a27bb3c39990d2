/// What a server cannot tell the engine, and the engine finds out itself: deletions without
/// tombstones, and records made by a create whose answer was lost.
extension Backend {
    /// False: the server's pull reports deletions itself (tombstones).
    public func sweepsDeletions(in collection: String) -> Bool { false }

    /// False: a resent create is recognised by the server (Kinto's `If-None-Match: *` with
    /// client ids, an idempotency key) or by the backend.
    public func refreshesBeforeResendingCreates(in collection: String) -> Bool { false }
}
