import Foundation
import GRDB

/// The app's lifecycle on Apple platforms: suspension, and syncs that fit a background
/// task's time (Docs/ApplePlatforms.md).
extension ObjectStore {
    /// Prepares the store for the app's suspension: a flush, refresh, sync or reset that
    /// runs stops at its next safe point (an answer already on its way is awaited and
    /// settled; what was not sent stays queued) and releases the sync lock; none starts
    /// until ``resume()`` — they wait for it.
    ///
    /// iOS terminates a suspended app that holds a file lock in a shared App Group
    /// container (`0xdead10cc`), and the sync lock is one while a sync runs. Call it when
    /// the app moves to the background, inside a background task so it can finish:
    ///
    /// ```swift
    /// func sceneDidEnterBackground(_ scene: UIScene) {
    ///     let task = UIApplication.shared.beginBackgroundTask()
    ///     Task {
    ///         await store.suspend()
    ///         NotificationCenter.default.post(name: ObjectStore.databaseSuspendNotification, object: nil)
    ///         UIApplication.shared.endBackgroundTask(task)
    ///     }
    /// }
    /// ```
    ///
    /// The store's database connections observe GRDB's suspension notifications
    /// (``databaseSuspendNotification``): posting it, as above, keeps them from taking
    /// SQLite locks while suspended (an edit then fails with `storage`). It suspends every
    /// GRDB database of the process that observes it, so the app posts it, not the store.
    /// A run stopped by the suspension throws ``OfflineStoreError/Code/cancelled``.
    public func suspend() async {
        await syncLock.suspend()
    }

    /// Ends a suspension: runs waiting for it take the sync lock in turn. Post
    /// ``databaseResumeNotification`` too when the app posted the suspension one.
    public func resume() {
        syncLock.resume()
    }

    /// Whether the store is suspended (``suspend()``).
    public var isSuspended: Bool { syncLock.suspension.isSuspended }

    /// GRDB's `Database.suspendNotification`, which the store's database connections
    /// observe: posting it makes every observing GRDB database of the process release its
    /// SQLite locks and take none until ``databaseResumeNotification``.
    public static var databaseSuspendNotification: Notification.Name { Database.suspendNotification }

    /// GRDB's `Database.resumeNotification`: ends what ``databaseSuspendNotification`` began.
    public static var databaseResumeNotification: Notification.Name { Database.resumeNotification }

    /// Flushes and refreshes like ``sync()``, stopping at a safe point before `budget` runs
    /// out: for a `BGAppRefreshTask` (about 30 seconds) or a scheduled job with a time limit.
    ///
    /// At every safe point (before a batch is sent, a page is fetched, a blob is uploaded)
    /// the run goes on only if a step as long as its longest so far still ends before the
    /// budget, with a reserve of a tenth of it (at most two seconds). Waiting for another
    /// process's sync counts too: the run gives up waiting when the budget is spent.
    /// What was done stays done; the rest waits for the next run.
    ///
    /// ```swift
    /// BGTaskScheduler.shared.register(forTaskWithIdentifier: "app.sync", using: nil) { task in
    ///     let run = Task {
    ///         let result = try? await store.sync(within: .seconds(25))
    ///         task.setTaskCompleted(success: result != nil)
    ///     }
    ///     task.expirationHandler = { run.cancel() }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - budget: the longest the run may take.
    ///   - clock: the clock the budget is measured on (inject one in tests).
    /// - Returns: the report, and whether the run stopped for its budget.
    /// - Throws: as ``sync()`` when the run stopped for another reason (offline, refused,
    ///   cancelled, suspended), with what was done in its ``OfflineStoreError/report``.
    public func sync<C: Clock & Sendable>(within budget: Duration, clock: C) async throws -> BudgetedSyncReport
    where C.Duration == Duration {
        let start = clock.now
        let watch = SyncBudgetWatch(budget: SyncBudget(budget), elapsed: { start.duration(to: clock.now) })
        let work = Task { try await SyncBudgetWatch.$current.withValue(watch) { try await self.sync() } }
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
            return BudgetedSyncReport(report: try error.report ?? local.leftReport(), stoppedAtBudget: true)
        case .failure(let error):
            throw error
        }
    }

    /// ``sync(within:clock:)`` on the continuous clock.
    public func sync(within budget: Duration) async throws -> BudgetedSyncReport {
        try await sync(within: budget, clock: ContinuousClock())
    }
}
