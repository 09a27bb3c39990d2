import Foundation
import GRDB

extension ObjectStore {
    /// Pushes the pending queue to the server in FIFO order, batching where the backend allows.
    ///
    /// 2xx: the persistent copy becomes the server's answer and the entry goes (a newer
    /// local edit made meanwhile stays queued). 409/412: the collection's conflict policy
    /// decides. Other 4xx: the entry becomes `failed` with status and body, and later edits
    /// of that object wait. 5xx, timeouts and lost connections keep the entry pending and
    /// stop the flush.
    ///
    /// - Returns: the counts of what was done and what is left.
    /// - Throws: ``OfflineStoreError`` when the run stopped early (offline, unauthorized,
    ///   server error), with what was done before in its ``OfflineStoreError/report`` (kept). ``OfflineStoreError/Code/configuration``
    ///   without a backend.
    @discardableResult
    public func flush() async throws -> SyncReport {
        try await observed(.flush) {
            let (report, stop) = try await withSyncLock { try await runFlush() }
            if let stop { throw stop.stoppingRun(after: report) }
            return report
        }
    }

    /// Pushes the queue for an immediate write; returns the error that stopped it early.
    func flushForImmediateWrite() async throws -> OfflineStoreError? {
        try await ObjectStore.$changeOrigin.withValue(.server) { try await withSyncLock { try await runFlush() }.1 }
    }

    /// The maximum number of times one entry is sent in one flush (conflict resends).
    static let maximumSendsPerRun = 3

    func runFlush() async throws -> (SyncReport, OfflineStoreError?) {
        guard let backend else { throw OfflineStoreError(.configuration, "the store has no backend to flush to") }
        var report = SyncReport()
        if isForcedOffline {
            return (try finish(report), OfflineStoreError(.offline, "the store is set offline"))
        }
        try write("preparing the queue") { db in try FlushQueue.prepareForFlush(db) }
        beginFlushRun()
        var maxBatch: Int?
        var sends: [Int64: Int] = [:]
        var exhausted = Set<Int64>()  // entries sent maximumSendsPerRun times in this run
        var prepared = Set<String>()
        while true {
            if isForcedOffline { return (try finish(report), OfflineStoreError(.offline, "the store was set offline")) }
            if let cancelled = SyncCancellation.check("the flush") { return (try finish(report), cancelled) }
            let held = try flushHolds(backend: backend)
            report.heldBack = held.associations
            let skipping = exhausted.union(held.seqs)
            var batch = try read("reading the queue") { db in
                try FlushQueue.nextBatch(db, maxSize: maxBatch ?? 1, skipping: skipping)
            }
            // The server is asked for its batch size only when there is something to send.
            guard !batch.isEmpty else { break }
            if maxBatch == nil {
                do { maxBatch = try await backend.capabilities().maxBatchSize } catch {
                    return (try finish(report), SyncCancellation.stop(for: error, "the flush"))
                }
                batch = try read("reading the queue") { db in
                    try FlushQueue.nextBatch(db, maxSize: maxBatch ?? 1, skipping: skipping)
                }
            }
            guard let collection = batch.first?.collection else { break }
            let policy = (try? descriptor(of: collection).conflictPolicy) ?? .preserveConflict
            do {
                if !prepared.contains(collection) {
                    try await backend.prepare(collection: collection)
                    prepared.insert(collection)
                }
            } catch { return (try finish(report), SyncCancellation.stop(for: error, "the flush")) }
            if let cancelled = SyncCancellation.check("the flush") { return (try finish(report), cancelled) }

            let sent = try write("marking entries in flight") { db in try InFlight.mark(batch, in: db) }
            for s in sent {
                sends[s.entry.seq, default: 0] += 1
                if sends[s.entry.seq] == ObjectStore.maximumSendsPerRun { exhausted.insert(s.entry.seq) }
            }
            let outcomes: [PushOutcome]
            do {
                // Once marked in flight, the batch's answer is awaited even if the task is
                // cancelled now: it is settled below, and the run stops at the loop's top.
                let operations = sent.map(\.operation)
                outcomes = try await SyncCancellation.shielded { try await backend.push(operations, collection: collection) }
                guard outcomes.count == sent.count else {
                    throw OfflineStoreError(.badResponse, "the backend answered \(outcomes.count) outcomes for \(sent.count) operations")
                }
            } catch {
                let stop = OfflineStoreError.sync(error)
                try write("returning entries to the queue") { db in
                    // A wait the server asked for (Retry-After / Backoff) is kept for AutoSync.
                    let notBefore = stop.retryAfter.map { configuration.now().addingTimeInterval($0.timeInterval) }
                    for s in sent { try InFlight.release(s.entry.seq, error: stop, notBefore: notBefore, in: db) }
                }
                return (try finish(report), stop)
            }
            var stop: OfflineStoreError?
            try write("applying the server's answers") { db in
                for (s, outcome) in zip(sent, outcomes) {
                    if let retry = try applyPushOutcome(outcome, of: s, policy: policy, report: &report, in: db) { stop = retry }
                }
            }
            reportPushProgress(collection, answered: sent.count)
            if let stop { return (try finish(report), stop) }
        }
        if let stop = try await uploadPendingBlobs(report: &report) { return (try finish(report), stop) }
        return (try finish(report), nil)
    }

    /// Fills the report's "left" counts from the store.
    func finish(_ report: SyncReport) throws -> SyncReport {
        var report = report
        try read("counting what is left") { db in
            report.conflicts = try Int.fetchOne(db, sql: "SELECT count(*) FROM objects WHERE state = 'conflicted'") ?? 0
            report.failed = try Int.fetchOne(db, sql: "SELECT count(*) FROM queue WHERE state = 'failed'") ?? 0
            report.pending = try Int.fetchOne(db, sql: "SELECT count(*) FROM queue WHERE state != 'failed'") ?? 0
            // Held behind a failed entry or conflict of their object, plus (set by the flush loop)
            // entries held because they reference an object whose create was not applied.
            report.heldBack += try ObjectStore.heldBackCount(db)
        }
        return report
    }
}

extension OfflineStoreError {
    /// Any error met while talking to the server, as a typed error.
    static func sync(_ error: any Error) -> OfflineStoreError {
        if let e = error as? OfflineStoreError { return e }
        if let t = error as? TransportError { return OfflineStoreError(transport: t, while: "syncing") }
        return OfflineStoreError(.server, "the sync failed", underlying: String(describing: error), underlyingError: error)
    }
}
