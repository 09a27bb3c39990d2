import Foundation
import OfflineStore

/// The flush, refresh or sync the inspector runs (one at a time) and its live progress,
/// folded from the store's ``ObjectStore/syncEvents()``.
final class SyncActivity: Sendable {
    /// What the page shows about runs.
    struct Snapshot: Sendable {
        var running: SyncOperation?
        var progress: SyncProgress?
        var conflictsMet = 0
        var failedMet = 0
        var startedAt: Date?
        var last: SyncOperation?
        var lastReport: SyncReport?
        var lastError: String?
        var lastFinishedAt: Date?
        var lastFlushAt: Date?
        var lastRefreshAt: Date?
    }

    private let state = Locked(Snapshot())
    private let store: ObjectStore
    private let now: @Sendable () -> Date

    init(store: ObjectStore, now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.now = now
    }

    var snapshot: Snapshot { state.withLock { $0 } }

    /// Follows the store's events for the store's lifetime (the stream ends when it closes).
    func follow() -> Task<Void, Never> {
        let events = store.syncEvents()
        return Task { [self] in
            for await event in events { take(event) }
        }
    }

    private func take(_ event: SyncEvent) {
        state.withLock { s in
            switch event {
            case .progress(let progress): s.progress = progress
            case .conflict: s.conflictsMet += 1
            case .failedEntry: s.failedMet += 1
            case .started, .finished, .error, .refused, .readAccessLost, .lateDeliveryUndone: break
            }
        }
    }

    /// Starts a run in the background; the page follows it through ``snapshot``.
    ///
    /// - Throws: ``InspectorError`` (409) while another run of this inspector is going.
    func start(_ operation: SyncOperation) throws {
        try state.withLock { s in
            if let running = s.running { throw InspectorError(409, "a \(running.rawValue) is already running") }
            s.running = operation
            s.progress = nil
            s.conflictsMet = 0
            s.failedMet = 0
            s.startedAt = now()
        }
        let store = self.store
        Task { [self] in
            var report: SyncReport?
            var failure: String?
            do {
                report = switch operation {
                case .flush: try await store.flush()
                case .refresh: try await store.refresh()
                case .sync: try await store.sync()
                }
            } catch let interrupted as OfflineStoreError {
                report = interrupted.report
                failure = InspectorError.describe(interrupted).message
            } catch {
                failure = InspectorError.describe(error).message
            }
            finish(operation, report: report, error: failure)
        }
    }

    private func finish(_ operation: SyncOperation, report: SyncReport?, error: String?) {
        let at = now()
        state.withLock { s in
            s.running = nil
            s.last = operation
            s.lastReport = report
            s.lastError = error
            s.lastFinishedAt = at
            guard error == nil else { return }
            if operation != .refresh { s.lastFlushAt = at }
            if operation != .flush { s.lastRefreshAt = at }
        }
    }
}
