import Foundation
import GRDB

extension SyncEngine {
    /// What stopped the flush loop (``pushQueue(_:flush:report:)``).
    enum FlushLoopEnd: Sendable {
        /// The queue is done, or the error that stopped the run early.
        case finished(OfflineStoreError?)
        /// The next batch resends a create whose answer was lost on a server that cannot
        /// recognise it (``LostAnswerRule``): refresh this collection, then go on.
        case refreshFirst(String)
    }

    /// Readies the queue for a flush run: creates a killed process had on the wire are watched
    /// (they may still arrive), entries it left in flight go back to pending, and the failed-entry
    /// handler's deferrals of an earlier run are forgotten. Returns the error that stops the run
    /// before it starts, if any.
    func startFlush() throws -> OfflineStoreError? {
        if isForcedOffline { return OfflineStoreError(.offline, "the store is set offline") }
        try write("preparing the queue") { db in
            if watchesLateDeliveries { try LateDeliveryTable.watchInFlight(at: configuration.now(), in: db) }
            try QueueTable.recoverInFlight(db)
        }
        deferredRetries.withLock { $0.removeAll() }
        return nil
    }

    /// Pushes the queue in FIFO order, batching where the backend allows; the rules are in
    /// ``FlushPlan`` (what goes in the next batch), ``FlushStateMachine`` (the run's steps) and
    /// ``PushOutcomeRule`` (what an answer means). Runs under the sync lock (the caller holds
    /// it), after ``startFlush()``, and stops where a refresh must come first: the run's entry
    /// (``runFlush(_:)``) does it and calls this again with the same `flush`.
    func pushQueue(_ context: SyncContext, flush: inout FlushStateMachine, report: inout SyncReport) async throws -> FlushLoopEnd {
        while true {
            if isForcedOffline { return .finished(OfflineStoreError(.offline, "the store was set offline")) }
            if let cancelled = SyncCancellation.check("the flush") { return .finished(cancelled) }
            let (batch, heldBack) = try plannedBatch(context, flush: flush)
            report.heldBack = heldBack
            switch flush.next(for: batch) {
            case .uploadBlobs:
                return .finished(try await uploadPendingBlobs(report: &report))
            case .askCapabilities:
                // The server is asked for its batch size only when there is something to send.
                do { flush.learnedBatchLimit(try await backend.capabilities().maxBatchSize) } catch {
                    return .finished(SyncCancellation.stop(for: error, "the flush"))
                }
            case .prepare(let collection):
                do {
                    try await prepareRecordingAccess(collection)
                } catch let error as OfflineStoreError where FailureRule.isCollectionRefusal(error) {
                    // Not creatable nor readable: its entries wait in the queue, the others go on.
                    refuse(collection, .push, error, report: &report)
                    flush.didRefuse(collection)
                    continue
                } catch {
                    return .finished(SyncCancellation.stop(for: error, "the flush"))
                }
                flush.didPrepare(collection)
            case .send(let batch):
                if let cancelled = SyncCancellation.check("the flush") { return .finished(cancelled) }
                if let name = collectionToRefresh(before: batch, flush: flush) {
                    // A record the lost create made is adopted as its answer; the batch is read again.
                    return .refreshFirst(name)
                }
                if let stop = try await send(batch, flush: &flush, context: context, report: &report) { return .finished(stop) }
            }
        }
    }

    /// The next batch to send (``FlushPlan``), reading the queue in FIFO pages only as far
    /// as needed to decide it: sent entries leave the queue, so a flush of n entries reads
    /// O(n) rows in all instead of the whole queue before every batch.
    ///
    /// `without`: entries read as if they had left the queue (a batch on the wire whose answers
    /// will take them out): they neither go in the batch nor hold back their objects' later entries.
    func nextBatch(maxSize: Int, skipping skipped: Set<Int64>, skippingCollections refused: Set<String> = [],
                   without gone: Set<Int64> = []) throws -> [QueueEntry] {
        try read("reading the queue") { db in
            var candidates: [FlushPlan.Candidate] = []
            // A server may announce any batch limit (even Int.max): grow the page without overflowing.
            var pageSize = max(32, maxSize.multipliedReportingOverflow(by: 2).overflow ? Int.max : maxSize * 2)
            var after = Int64.min
            while true {
                let page = try FlushQueue.candidates(db, after: after, limit: pageSize)
                candidates += gone.isEmpty ? page : page.filter { !gone.contains($0.entry.seq) }
                let plan = FlushPlan.plan(candidates, maxSize: maxSize, skipping: skipped, skippingCollections: refused)
                guard !plan.isDecided, page.count == pageSize, let last = page.last else { return plan.batch }
                after = last.entry.seq
                // A long held-back head costs O(n) per batch, as a whole read would.
                pageSize = pageSize.multipliedReportingOverflow(by: 2).overflow ? Int.max : pageSize * 2
            }
        }
    }

    /// Marks a batch in flight, sends it, and writes the answers in one transaction; the app
    /// hears of conflicts and rejections after it committed. While a batch is on the wire the
    /// next one is read and marked (``StagedBatch``); when every answer is a success
    /// (``FlushOverlapRule``) it is sent at once and those answers are written while it is on
    /// the wire, and so on while the chain lasts: the service does not wait for the store.
    /// Otherwise the staged batch is withdrawn to the queue as it was, and the loop decides
    /// after the answers are written.
    /// - Returns: the error that stops the run, if any.
    private func send(_ batch: [QueueEntry], flush: inout FlushStateMachine, context: SyncContext,
                      report: inout SyncReport) async throws -> OfflineStoreError? {
        guard let first = try stage(batch, context: context) else { return nil }
        var wire = start(first, flush: &flush)
        while true {
            // Reading or marking the next batch may fail (the database): the answers on the
            // wire are applied all the same, and the failure then ends the run.
            var staged: StagedBatch?
            var stageFailure: (any Error)?
            do { staged = try stageFollowing(wire, flush: flush, context: context) } catch { stageFailure = error }
            let outcomes: [PushOutcome]
            do {
                outcomes = try await wire.outcomes()
            } catch {
                return try returnToQueue(wire, after: error, withdrawing: staged)
            }
            let answers = zip(wire.sent, outcomes).map { PushOutcomeRule.decide($1, sent: $0.operation.data) }
            var next: BatchOnWire?
            if let staged {
                if FlushOverlapRule.mayOverlap(answers, sent: wire.sent.map(\.operation)), !isForcedOffline,
                   SyncCancellation.check("the flush") == nil {
                    let started = start(staged, flush: &flush)
                    next = started
                    // Writing the answers below keeps this thread busy until they are written.
                    // The request started on this thread (``Task/startedHere(_:)``) and goes
                    // out first (``RequestWritten``); where the backend cannot tell, the loop
                    // yields once, which gives the request's task a turn of the pool where it
                    // could not start here.
                    await started.wentOut(patience: configuration.requestWrittenPatience)
                } else {
                    do { try withdraw(staged) } catch { stageFailure = stageFailure ?? error }
                }
            }
            let stop: OfflineStoreError?
            do {
                stop = try applyAnswers(outcomes, of: wire, context: context, report: &report,
                                        alsoOnWire: next?.marked.count(in: wire.collection) ?? 0)
            } catch {
                // The next batch does not depend on these answers: its own are applied if they
                // come and can be written, else its entries stay in flight as a killed process
                // leaves them (the next run resends them). Then the first failure ends the run.
                if let next { try? await settle(next, context: context, report: &report) }
                throw error
            }
            if let stageFailure { throw stageFailure }
            guard let following = next else { return stop }
            if let stop {
                // Not reached: an answer that stops the run forbids the overlap. Kept safe all the same.
                try await settle(following, context: context, report: &report)
                return stop
            }
            wire = following
        }
    }

    /// Awaits a batch's answer and applies it, or returns its entries to the queue when none
    /// came; the run stops after it (the caller returns or throws its own reason).
    private func settle(_ wire: BatchOnWire, context: SyncContext, report: inout SyncReport) async throws {
        let outcomes: [PushOutcome]
        do {
            outcomes = try await wire.outcomes()
        } catch {
            _ = try returnToQueue(wire, after: error)
            return
        }
        _ = try applyAnswers(outcomes, of: wire, context: context, report: &report)
    }

    /// Marks a batch in flight, not sending it yet; nil when every entry gave way to a later delete.
    /// `onWire`: a batch sent and not answered yet, which a progress total counts.
    private func stage(_ batch: [QueueEntry], context: SyncContext, onWire: BatchOnWire? = nil) throws -> StagedBatch? {
        guard let collection = batch.first?.collection else { return nil }
        let described = try? descriptor(of: collection)
        let sent = try write("marking entries in flight") { db in try InFlight.mark(batch, watchesLateDeliveries: watchesLateDeliveries, in: db) }
        // Entries that gave way to a later delete are settled: progress counts them, and its
        // total the entries now in flight (this batch's, and the one on the wire's).
        if sent.count < batch.count {
            let inFlight = sent.count + (onWire?.marked.count(in: collection) ?? 0)
            reportPushProgress(collection, answered: batch.count - sent.count, context: context, alsoOnWire: inFlight)
        }
        guard !sent.isEmpty else { return nil }
        return StagedBatch(collection: collection, descriptor: described, sent: sent)
    }

    /// Sends a staged batch.
    private func start(_ staged: StagedBatch, flush: inout FlushStateMachine) -> BatchOnWire {
        flush.didSend(staged.sent.map(\.entry.seq))
        // Once sent, the batch's answer is awaited even if the task is cancelled now: it is
        // settled, and the run stops at its next safe point. Only a suspension's deadline
        // cancels it: then it is an answer that never came.
        let backend = self.backend, operations = staged.sent.map(\.operation), collection = staged.collection
        let written = (backend as? any ReportsRequestWritten)?.reportsRequestWritten == true ? RequestWritten() : nil
        let answer = Task.startedHere {
            defer { written?.fire() }
            return try await RequestWritten.$current.withValue(written) {
                try await SyncCancellation.shielded { try await backend.push(operations, collection: collection) }
            }
        }
        return BatchOnWire(marked: staged, answer: answer, written: written)
    }

    /// Returns a staged batch that is not sent to the queue as it was (``QueueTransition/withdraw``).
    private func withdraw(_ staged: StagedBatch) throws {
        try write("withdrawing entries marked in flight") { db in try InFlight.withdraw(staged.sent, in: db) }
    }

    /// Stages the batch to send after `wire`: the one the loop in
    /// ``pushQueue(_:flush:report:)`` would send once `wire`'s answers are written, read with
    /// the entries on the wire taken out of the queue as their answers will take them, when
    /// that is a send that needs nothing first and may follow them
    /// (``FlushOverlapRule/follows(_:onWire:)``); nil otherwise, and the loop decides after
    /// the answers are written.
    private func stageFollowing(_ wire: BatchOnWire, flush: FlushStateMachine, context: SyncContext) throws -> StagedBatch? {
        let onWire = wire.sent.map(\.entry), backend = self.backend
        let traits = { (collection: String) in backend.traits(of: collection) }
        // Decided before the queue is read: behind such a batch nothing is staged, whatever comes next.
        guard !isForcedOffline, SyncCancellation.check("the flush") == nil,
              FlushOverlapRule.mayStage(behind: onWire, traits: traits) else { return nil }
        let (batch, _) = try plannedBatch(context, flush: flush, without: wire.seqs)
        guard case .send(let entries) = flush.next(for: batch), FlushOverlapRule.follows(entries, onWire: onWire),
              FlushOverlapRule.mayStage(entries, onWire: onWire, traits: traits),
              collectionToRefresh(before: entries, flush: flush) == nil
        else { return nil }
        return try stage(entries, context: context, onWire: wire)
    }

    /// The next batch as the flush reads it (``FlushPlan``, skipping held-back entries), with
    /// how many are held for their associations. `without`: entries read as if they had left
    /// the queue (a batch on the wire whose answers will take them out); their holds are then
    /// not recorded, as the loop records them when it reads the queue after those answers.
    private func plannedBatch(_ context: SyncContext, flush: FlushStateMachine,
                              without gone: Set<Int64> = []) throws -> (batch: [QueueEntry], heldBack: Int) {
        let held = try flushHolds(context, without: gone)
        let batch = try nextBatch(maxSize: flush.batchLimit, skipping: flush.exhausted.union(held.seqs),
                                  skippingCollections: flush.refused, without: gone)
        return (batch, held.associations)
    }

    /// The collection to refresh before `batch` is sent (``LostAnswerRule``), if any.
    private func collectionToRefresh(before batch: [QueueEntry], flush: FlushStateMachine) -> String? {
        let backend = self.backend
        return LostAnswerRule.collectionToRefresh(before: batch, refreshes: { backend.traits(of: $0).refreshesBeforeResendingCreates },
                                                  refreshed: flush.refreshedFirst)
    }

    /// A batch whose answer never came: its entries wait in the queue again (creates are
    /// watched for a late delivery), and the error stops the run. `staged`, the batch marked to
    /// follow it, is withdrawn in the same transaction.
    private func returnToQueue(_ wire: BatchOnWire, after error: any Error, withdrawing staged: StagedBatch? = nil) throws -> OfflineStoreError {
        let stop = SyncCancellation.interruptedPush(error) ?? OfflineStoreError.sync(error)
        try write("returning entries to the queue") { db in
            if let staged { try InFlight.withdraw(staged.sent, in: db) }
            // A wait the server asked for (Retry-After / Backoff) is kept for AutoSync.
            let notBefore = stop.retryAfter.map { configuration.now().addingTimeInterval($0.timeInterval) }
            for s in wire.sent { try QueueTable.release(s.entry.seq, error: stop, notBefore: notBefore, in: db) }
            try watchLostAnswers(wire.sent, after: stop, in: db)
        }
        return stop
    }

    /// Writes a batch's answers in one transaction, then tells the app and reports progress.
    /// - Returns: the error that stops the run (an answer asking to retry later), if any.
    /// `alsoOnWire`: entries of the same collection already sent after these, which the
    /// progress total counts as still to answer.
    private func applyAnswers(_ outcomes: [PushOutcome], of wire: BatchOnWire, context: SyncContext,
                              report: inout SyncReport, alsoOnWire: Int = 0) throws -> OfflineStoreError? {
        let policy = wire.descriptor?.conflictPolicy ?? .preserveConflict
        var stop: OfflineStoreError?
        var notices = AppNotices()
        try write("applying the server's answers") { db in
            for (s, outcome) in zip(wire.sent, outcomes) {
                if let retry = try applyPushOutcome(outcome, of: s, policy: policy, report: &report, notices: &notices, in: db) {
                    stop = retry
                }
            }
        }
        try deliver(notices, report: &report)
        reportPushProgress(wire.collection, answered: wire.sent.count, context: context, alsoOnWire: alsoOnWire)
        return stop
    }

    /// Reports answered entries of a pushed batch; `alsoOnWire` entries of the collection were
    /// sent and not answered yet, so the total (fixed at the collection's first report) counts them.
    func reportPushProgress(_ collection: String, answered: Int, context: SyncContext, alsoOnWire: Int = 0) {
        guard let counter = context.progress else { return }
        let waiting = { [self] in
            try? read("counting the queue") { db in try QueueTable.waitingCount(db, collection: collection) }
        }
        emit(.progress(counter.advance(collection, .push, by: answered, total: { answered + alsoOnWire + (waiting() ?? 0) })))
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

extension SyncEngine {
    /// The entries one flush batch must not include: the error handler's deferrals,
    /// entries whose retry delay has not come (when the run honours them: AutoSync), and
    /// entries held for their associations; `associations` counts the last kind for the report.
    ///
    /// The association check needs the whole queue, so it reads it only when a registered
    /// collection declares associations with the backend; otherwise the flush pages the
    /// queue (``nextBatch(maxSize:skipping:)``) and never reads it whole.
    ///
    /// `without`: entries read as if they had left the queue (their creates count as applied);
    /// the held entries' reasons are then not written on them (``plannedBatch(_:flush:without:)``).
    func flushHolds(_ context: SyncContext, without gone: Set<Int64> = []) throws -> (seqs: Set<Int64>, associations: Int) {
        var seqs = deferredRetries.withLock { $0 }
        if context.honoursRetryDelays {
            seqs.formUnion(try read("reading held-back entries") { db in try QueueTable.notDue(db, at: configuration.now()) })
        }
        guard collections.names.contains(where: { !backend.traits(of: $0).associations.isEmpty }) else { return (seqs, 0) }
        let candidates = try read("reading the queue") { db in try FlushQueue.candidates(db) }.filter { !gone.contains($0.entry.seq) }
        let held = try read("checking associations") { db in try AssociationHolds.find(candidates, backend: backend, in: db) }
        if gone.isEmpty, !held.isEmpty {
            try write("recording held-back entries") { db in
                for (seq, reason) in held { try QueueTable.recordHold(seq, reason: reason, in: db) }
            }
        }
        seqs.formUnion(held.keys)
        return (seqs, held.count)
    }
}
