import GRDB

extension SyncEngine {
    /// The entries one flush batch must not include: the error handler's deferrals,
    /// entries whose retry delay has not come (when the run honours them: AutoSync), and
    /// entries held for their associations; `associations` counts the last kind for the report.
    ///
    /// The association check needs the whole queue, so it reads it only when a registered
    /// collection declares associations with the backend; otherwise the flush pages the
    /// queue (`FlushQueue.nextBatch`) and never reads it whole.
    func flushHolds(_ run: SyncRun) throws -> (seqs: Set<Int64>, associations: Int) {
        var seqs = runtime.deferredRetries.withLock { $0 }
        if run.honoursRetryDelays {
            seqs.formUnion(try read("reading held-back entries") { db in try QueueTable.notDue(db, at: configuration.now()) })
        }
        guard collections.names.contains(where: { !backend.associations(of: $0).isEmpty }) else { return (seqs, 0) }
        let candidates = try read("reading the queue") { db in try FlushQueue.candidates(db) }
        let held = try read("checking associations") { db in try AssociationHolds.find(candidates, backend: backend, in: db) }
        if !held.isEmpty {
            try write("recording held-back entries") { db in
                for (seq, reason) in held { try QueueTable.recordHold(seq, reason: reason, in: db) }
            }
        }
        seqs.formUnion(held.keys)
        return (seqs, held.count)
    }
}
