import Foundation

/// The runs the app starts: `flush`, `refresh` and `sync` (flush, then refresh, under one
/// hold of the sync lock), each with its `started` / `progress` / `finished` or `error`
/// events (Docs/Observing.md); and the suspension that stops them.
extension SyncEngine {
    /// ``ObjectStore/flush()``; entries whose retry delay has not come are skipped when
    /// `honouringRetryDelays` (AutoSync).
    func flush(honouringRetryDelays: Bool) async throws -> SyncReport {
        try await observed(.flush, honouringRetryDelays: honouringRetryDelays) { context in
            try connected("flush to")
            let (report, stop) = try await withSyncLock { try await runFlush(context) }
            if let stop { throw stop.stoppingRun(after: report) }
            return report
        }
    }

    /// ``ObjectStore/refresh(collections:full:)``.
    func refresh(collections: [String]?, full: Bool) async throws -> SyncReport {
        try await observed(.refresh, honouringRetryDelays: false) { context in
            try connected("refresh from")
            let (report, stop) = try await withSyncLock { try await runRefresh(collections: collections, full: full, context) }
            if let stop { throw stop.stoppingRun(after: report) }
            try markSynced()
            return report
        }
    }

    /// ``ObjectStore/sync()``: the flush, then (unless it stopped early) the refresh, with
    /// one report; the flush skips entries whose retry delay has not come when `honouringRetryDelays`.
    func sync(honouringRetryDelays: Bool) async throws -> SyncReport {
        try await observed(.sync, honouringRetryDelays: honouringRetryDelays) { context in
            try connected("sync with")
            let (report, stop) = try await withSyncLock { try await runSync(context) }
            if let stop { throw stop.stoppingRun(after: report) }
            try markSynced()
            return report
        }
    }

    // MARK: The steps of a run: the one place where flushing and refreshing meet

    /// A flush: pushes the queue (``pushQueue(_:flush:report:)``), refreshing a collection first
    /// where the flush loop asks (a create whose answer was lost, on a server that cannot
    /// recognise it when resent). Returns the report and the error that stopped the run early,
    /// if any; runs under the sync lock (the caller holds it).
    func runFlush(_ context: SyncContext) async throws -> (SyncReport, OfflineStoreError?) {
        var report = SyncReport()
        var stop = try startFlush()
        var flush = FlushStateMachine()
        flushing: while stop == nil {
            switch try await pushQueue(context, flush: &flush, report: &report) {
            case .finished(let end):
                stop = end
                break flushing
            case .refreshFirst(let name):
                flush.didRefreshFirst(name)
                do { try await refreshCollection(try descriptor(of: name), full: false, report: &report, context: context) } catch {
                    stop = SyncCancellation.stop(for: error, "the flush")
                }
            }
        }
        return (try finish(report), stop)
    }

    /// A refresh: pulls the server's changes of every synced collection (or the named ones)
    /// since their stored cursors (``pullCollections(_:full:report:_:)``), then downloads eager
    /// blobs. Returns the report and the error that stopped the run early, if any; runs under
    /// the sync lock (the caller holds it).
    func runRefresh(collections names: [String]?, full: Bool, _ context: SyncContext) async throws -> (SyncReport, OfflineStoreError?) {
        var report = SyncReport()
        if isForcedOffline { return (try finish(report), OfflineStoreError(.offline, "the store is set offline")) }
        let targets = try (names?.map { try descriptor(of: $0) } ?? collections.all).filter { !$0.isLocalOnly }
        var stop = await pullCollections(targets, full: full, report: &report, context)
        if stop == nil { stop = try await downloadEagerBlobs(of: targets, report: &report) }
        return (try finish(report), stop)
    }

    /// A sync: the flush, then (unless it stopped early) the refresh, with one report; runs
    /// under the sync lock (the caller holds it).
    func runSync(_ context: SyncContext) async throws -> (SyncReport, OfflineStoreError?) {
        var report = SyncReport()
        let (pushed, flushStop) = try await runFlush(context)
        report.absorb(pushed)
        if let flushStop { return (report, flushStop) }
        let (pulled, refreshStop) = try await runRefresh(collections: nil, full: false, context)
        report.absorb(pulled)
        return (report, refreshStop)
    }

    /// ``ObjectStore/sync(within:clock:)``: a sync that stops at a safe point before `budget`
    /// runs out (``SyncBudgetWatch``), and the watchdog that cancels it when the budget is spent.
    func sync<C: Clock & Sendable>(within budget: Duration, clock: C) async throws -> BudgetedSyncReport
    where C.Duration == Duration {
        let start = clock.now
        let watch = SyncBudgetWatch(budget: SyncBudget(budget), elapsed: { start.duration(to: clock.now) })
        let work = Task {
            try await SyncBudgetWatch.$current.withValue(watch) {
                try await self.sync(honouringRetryDelays: SyncContext.insideAutoSyncAction)
            }
        }
        // At the end of the budget, a run still waiting (for another process's sync) or
        // still in a step is cancelled: it stops at its next safe point.
        let watchdog = Task {
            guard (try? await clock.sleep(until: start.advanced(by: budget), tolerance: nil)) != nil else { return }
            watch.expire()
            work.cancel()
        }
        let result = await withTaskCancellationHandler { await work.result } onCancel: { work.cancel() }
        watchdog.cancel()
        switch result {
        case .success(let report):
            return BudgetedSyncReport(report: report, stoppedAtBudget: false)
        case .failure(let error as OfflineStoreError) where error.code == .cancelled && watch.stopped && !Task.isCancelled:
            return BudgetedSyncReport(report: try error.report ?? finish(SyncReport()), stoppedAtBudget: true)
        case .failure(let error):
            throw error
        }
    }

    /// Hands the queue to the background sender (an immediate-mode edit committed).
    func sendSoon() {
        sender.signal { [weak self] in await self?.sendInBackground() }
    }

    /// One pass of the background sender: waits its turn on the sync lock, then flushes with
    /// the usual events, unless nothing is pending any more (a flush that ran meanwhile sent
    /// it: the pass then does nothing). Its outcome goes to the events, never to a caller.
    func sendInBackground() async {
        _ = try? await withSyncLock { () async throws -> Void in
            guard try read("counting pending entries", { db in try QueueTable.count(db, state: .pending) }) > 0 else { return }
            _ = try await observed(.flush, honouringRetryDelays: false) { context in
                let (report, stop) = try await runFlush(context)
                if let stop { throw stop.stoppingRun(after: report) }
                return report
            }
        }
    }

    /// Pushes the queue for an edit that awaits the server (no events); returns the error that stopped it early.
    func flushForImmediateWrite() async throws -> OfflineStoreError? {
        try await withSyncLock { try await runFlush(.immediateWrite) }.1
    }

    /// Runs a public flush/refresh/sync body with its `started` / `finished` / `error`
    /// events (also when the store has no backend: the run then ends with its error) and
    /// the run's progress counter.
    private func observed(_ operation: SyncOperation, honouringRetryDelays: Bool,
                          _ body: (SyncContext) async throws -> SyncReport) async throws -> SyncReport {
        emit(.started(operation))
        do {
            let report = try await body(SyncContext(progress: ProgressCounter(), honoursRetryDelays: honouringRetryDelays))
            emit(.finished(operation, report))
            return report
        } catch {
            // Whatever stopped the run, the edits it did not send stay queued.
            let error = (error as? OfflineStoreError)?.stoppingRunKeepsQueue ?? error
            emit(.error(operation, OfflineStoreError.sync(error)))
            throw error
        }
    }

    /// When the last flush-and-refresh or refresh completed, or nil if never.
    func lastSync() throws -> Date? {
        try read("reading the last sync time") { db in
            try MetaTable.value(forKey: MetaTable.lastSyncKey, in: db).flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
        }
    }

    // MARK: Suspension (ObjectStore.suspend(within:clock:postingDatabaseNotification:), resume(postingDatabaseNotification:))

    /// Suspends the sync lock (``SyncLock/suspend(within:clock:)``), then, once it is
    /// released, posts the database suspension when asked: a run that stops still writes
    /// what it settled.
    func suspend<C: Clock & Sendable>(within deadline: Duration, clock: C, postingDatabaseNotification: Bool) async
    where C.Duration == Duration {
        precondition(deadline >= .zero, "a suspension's deadline cannot be negative")
        await lock.suspend(within: deadline, clock: clock)
        if postingDatabaseNotification {
            NotificationCenter.default.post(name: ObjectStore.databaseSuspendNotification, object: nil)
        }
    }

    /// Posts the database resumption when asked, then resumes the sync lock: the runs that
    /// were waiting write as soon as they go on.
    func resume(postingDatabaseNotification: Bool) {
        if postingDatabaseNotification {
            NotificationCenter.default.post(name: ObjectStore.databaseResumeNotification, object: nil)
        }
        lock.resume()
    }
}
