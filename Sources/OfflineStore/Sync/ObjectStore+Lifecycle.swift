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
    /// the app moves to the background, inside a background task so it can finish, then
    /// post ``databaseSuspendNotification`` so the store's database connections take no
    /// SQLite locks while suspended (an edit then fails with `storage`); the app posts it,
    /// not the store, because it suspends every GRDB database of the process that observes
    /// it. Docs/ApplePlatforms.md shows the scene delegate's code for both directions.
    /// A run stopped by the suspension throws ``OfflineStoreError/Code/cancelled``.
    public func suspend() async {
        await syncEngine.lock.suspend()
    }

    /// Ends a suspension: runs waiting for it take the sync lock in turn. Post
    /// ``databaseResumeNotification`` too when the app posted the suspension one.
    public func resume() {
        syncEngine.lock.resume()
    }

    /// Whether the store is suspended (``suspend()``).
    public var isSuspended: Bool { syncEngine.lock.suspension.isSuspended }

    /// GRDB's `Database.suspendNotification`, which the store's database connections
    /// observe: posting it makes every observing GRDB database of the process release its
    /// SQLite locks and take none until ``databaseResumeNotification``.
    public static var databaseSuspendNotification: Notification.Name { Database.suspendNotification }

    /// GRDB's `Database.resumeNotification`: ends what ``databaseSuspendNotification`` began.
    public static var databaseResumeNotification: Notification.Name { Database.resumeNotification }

    /// Flushes and refreshes like ``sync()``, stopping at a safe point before `budget` runs
    /// out: for a `BGAppRefreshTask` (about 30 seconds) or a scheduled job with a time limit
    /// (Docs/ApplePlatforms.md shows a background task that resumes, syncs and suspends).
    ///
    /// At every safe point (before a batch is sent, a page is fetched, a blob is uploaded)
    /// the run goes on only if a step as long as its longest so far still ends before the
    /// budget, with a reserve of a tenth of it (at most two seconds). Waiting for another
    /// process's sync counts too: the run gives up waiting when the budget is spent.
    /// What was done stays done; the rest waits for the next run.
    ///
    /// - Parameters:
    ///   - budget: the longest the run may take.
    ///   - clock: the clock the budget is measured on (inject one in tests).
    /// - Returns: the report, and whether the run stopped for its budget.
    /// - Throws: as ``sync()`` when the run stopped for another reason (offline, refused,
    ///   cancelled, suspended), with what was done in its ``OfflineStoreError/report``.
    public func sync<C: Clock & Sendable>(within budget: Duration, clock: C) async throws -> BudgetedSyncReport
    where C.Duration == Duration {
        try await syncEngine.sync(within: budget, clock: clock)
    }

    /// ``sync(within:clock:)`` on the continuous clock.
    public func sync(within budget: Duration) async throws -> BudgetedSyncReport {
        try await sync(within: budget, clock: ContinuousClock())
    }
}
