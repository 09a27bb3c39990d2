import Foundation
import GRDB

/// The app's lifecycle on Apple platforms: suspension, and syncs that fit a background
/// task's time (Docs/ApplePlatforms.md).
extension ObjectStore {
    /// How long ``suspend()`` lets a request still on the wire go on before cancelling it:
    /// 5 s, well inside the background time iOS grants (Docs/ApplePlatforms.md, "Suspension").
    public static let defaultSuspensionDeadline: Duration = .seconds(5)

    /// ``suspend(within:postingDatabaseNotification:)`` with the default deadline, posting nothing.
    public func suspend() async { await suspend(within: Self.defaultSuspensionDeadline) }

    /// Prepares for the app's suspension (iOS kills a suspended app holding a file lock in a
    /// shared container, `0xdead10cc`): a running flush, refresh, sync or reset stops at its
    /// next safe point, throwing ``OfflineStoreError/Code/cancelled``; none starts until ``resume()``.
    /// Returns once the sync lock is released; a request still unanswered at `deadline` is
    /// cancelled and handled as a lost answer. `postingDatabaseNotification` then posts
    /// ``databaseSuspendNotification`` (Docs/ApplePlatforms.md, "Suspension").
    public func suspend(within deadline: Duration = ObjectStore.defaultSuspensionDeadline,
                        postingDatabaseNotification: Bool = false) async {
        await suspend(within: deadline, clock: ContinuousClock(), postingDatabaseNotification: postingDatabaseNotification)
    }

    /// ``suspend(within:postingDatabaseNotification:)`` with `deadline` measured on `clock`.
    public func suspend<C: Clock & Sendable>(within deadline: Duration, clock: C,
                                             postingDatabaseNotification: Bool = false) async where C.Duration == Duration {
        await syncEngine.suspend(within: deadline, clock: clock, postingDatabaseNotification: postingDatabaseNotification)
    }

    /// Ends a suspension: runs waiting for it take the sync lock in turn.
    public func resume() { resume(postingDatabaseNotification: false) }

    /// Ends a suspension, first posting ``databaseResumeNotification`` when
    /// `postingDatabaseNotification` (after the suspend one, no write succeeds without it).
    public func resume(postingDatabaseNotification: Bool) {
        syncEngine.resume(postingDatabaseNotification: postingDatabaseNotification)
    }

    /// Whether the store is suspended (``suspend()``).
    public var isSuspended: Bool { syncEngine.lock.suspension.isSuspended }

    /// GRDB's `Database.suspendNotification`: every GRDB database of the process that observes
    /// it (the store's do) releases its SQLite locks and takes none until ``databaseResumeNotification``.
    public static var databaseSuspendNotification: Notification.Name { Database.suspendNotification }

    /// GRDB's `Database.resumeNotification`: ends what ``databaseSuspendNotification`` began.
    public static var databaseResumeNotification: Notification.Name { Database.resumeNotification }

    /// Flushes and refreshes like ``sync()``, stopping at a safe point before `budget` runs
    /// out (a `BGAppRefreshTask`, a scheduled job): at every safe point the run goes on only
    /// if a step as long as its longest so far still ends before the budget, less a reserve
    /// of a tenth of it (at most 2 s); waiting for another process's sync counts too. What
    /// was done stays done; the rest waits for the next run.
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
