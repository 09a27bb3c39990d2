import OfflineStore

extension AsyncStream<SyncEvent> {
    /// The report of the next flush that ends (its `finished(.flush, …)`, or the report of
    /// its `error(.flush, …)`); nil when the stream ends first. Callers carry a `.timeLimit`.
    func nextFlushReport() async -> SyncReport? {
        for await event in self {
            if case .finished(.flush, let report) = event { return report }
            if case .error(.flush, let error) = event { return error.report }
        }
        return nil
    }
}
