import GRDB

extension ObjectStore {
    /// The entries one flush batch must not include: the error handler's deferrals,
    /// entries whose retry delay has not come (AutoSync), and entries held for their
    /// associations; `associations` counts the last kind for the report.
    ///
    /// The association check needs the whole queue, so it reads it only when a registered
    /// collection declares associations with the backend; otherwise the flush pages the
    /// queue (`FlushQueue.nextBatch`) and never reads it whole.
    func flushHolds(backend: any Backend) throws -> (seqs: Set<Int64>, associations: Int) {
        var seqs = try read("reading held-back entries") { db in try heldForLater(in: db) }
        let names = descriptors.withLock { Array($0.keys) }
        guard names.contains(where: { !backend.associations(of: $0).isEmpty }) else { return (seqs, 0) }
        let candidates = try read("reading the queue") { db in try FlushQueue.candidates(db) }
        let held = try associationHolds(candidates, backend: backend)
        seqs.formUnion(held)
        return (seqs, held.count)
    }
}
