/// Chooses the next batch to send from the queue, in FIFO order (pure, no I/O).
///
/// An entry is held back when its object is conflicted, when an earlier entry of the
/// same object failed or is still waiting, or when it depends on such an entry. A batch
/// holds entries of one collection, at most one per object, and stops at the first
/// entry of another collection so that store-wide order is kept.
struct FlushPlan {
    struct Candidate: Equatable {
        let entry: QueueEntry
        let objectState: SyncState?
    }

    /// The next batch, and whether it is decided by these candidates alone: true when it
    /// is full or stopped at another collection, so later queue entries cannot change it.
    /// A flush reads the queue page by page until the batch is decided (`SyncEngine.nextBatch`).
    static func plan(_ candidates: [Candidate], maxSize: Int, skipping skipped: Set<Int64> = []) -> (batch: [QueueEntry], isDecided: Bool) {
        var blockedObjects = Set<ObjectKey>()
        var batch: [QueueEntry] = []
        var batchCollection: String?
        for candidate in candidates {
            let entry = candidate.entry
            let key = ObjectKey(collection: entry.collection, id: entry.objectID)
            if blockedObjects.contains(key) { continue }
            // Whatever happens to this entry, later entries of the same object wait for it.
            blockedObjects.insert(key)
            guard entry.state != .failed, candidate.objectState != .conflicted, !skipped.contains(entry.seq) else { continue }
            if let c = batchCollection, c != entry.collection { return (batch, true) }
            batchCollection = entry.collection
            batch.append(entry)
            if batch.count == maxSize { return (batch, true) }
        }
        return (batch, false)
    }
}
