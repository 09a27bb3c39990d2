import Foundation

/// ``ObjectStore/suspend(within:clock:postingDatabaseNotification:)`` and
/// ``ObjectStore/resume(postingDatabaseNotification:)``: the sync lock's suspension, and
/// GRDB's notifications in the order an app needs them.
extension SyncEngine {
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
