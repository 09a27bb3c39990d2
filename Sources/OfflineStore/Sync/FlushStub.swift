extension ObjectStore {
    /// Pushes the queue for an immediate write; returns the error that stopped it early, if any.
    func flushForImmediateWrite() async throws -> OfflineStoreError? { nil }
}
