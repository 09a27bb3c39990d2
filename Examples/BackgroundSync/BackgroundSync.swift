import Foundation
import OfflineStore

/// Syncs a store in a background app refresh task: the store's part first, then the task's.
public enum BackgroundSync {
    /// The task's identifier, also listed in Info.plist under `BGTaskSchedulerPermittedIdentifiers`.
    public static let identifier = "com.example.todo.sync"

    /// Resumes the store and its database connections (the scene suspended both), syncs
    /// within `budget`, and suspends both again before the task completes; true when the
    /// sync ended without an error (stopping for its budget is not one).
    public static func run(_ store: ObjectStore, within budget: Duration) async -> Bool {
        store.resume(postingDatabaseNotification: true)
        let result = try? await store.sync(within: budget)
        await store.suspend(postingDatabaseNotification: true)
        return result != nil
    }
}

#if canImport(BackgroundTasks) && canImport(UIKit)
import BackgroundTasks

extension BackgroundSync {
    /// Registers the task's launch handler; call it before the app finishes launching.
    @MainActor
    public static func register(_ store: ObjectStore) {
        // `using: .main`: the system calls the handler on the main queue, so it runs on the
        // main actor, as it was written, and the task (not Sendable) never leaves it.
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: .main) { task in
            let work = Task { @MainActor in
                let synced = await run(store, within: .seconds(25))
                schedule()
                task.setTaskCompleted(success: synced)
            }
            // The system may call it on another thread: it captures only Sendable values.
            task.expirationHandler = { @Sendable in
                work.cancel()                                 // the sync stops at its next safe point
                Task { await store.suspend(within: .zero) }   // and a request on the wire is cancelled
            }
        }
    }

    /// Asks for the next run, at the earliest in 15 minutes.
    @MainActor
    public static func schedule() {
        let request = BGAppRefreshTaskRequest(identifier: identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
        try? BGTaskScheduler.shared.submit(request)
    }
}
#endif
