import Foundation

/// Sync events: an `AsyncSequence` of what flush, refresh and sync do (Docs/Observing.md).
///
/// ```swift
/// let events = store.syncEvents()          // subscribe before the run
/// Task {
///     for await event in events {
///         if case .progress(let p) = event { print(p.collection, p.processed, "/", p.total ?? -1) }
///     }
/// }
/// try await store.sync()
/// ```
///
/// Order in one run: `started`, then `progress` (one per pushed batch and per pulled
/// page), `conflict` and `failedEntry` as they are met, then `finished` with the report or
/// `error` with the reason it stopped. Immediate writes flush without `started`/`finished`
/// events; their conflicts and failed entries are still sent.
extension ObjectStore {
    /// A stream of every sync event from now on; it ends when the store closes or the
    /// consumer stops iterating. Buffered without limit, so nothing is dropped.
    public func syncEvents() -> AsyncStream<SyncEvent> {
        runtime.events.subscribe()
    }

    /// Sends an event to every subscriber.
    func emit(_ event: SyncEvent) {
        runtime.events.send(event)
    }

    /// Runs a public flush/refresh/sync body with its `started` / `finished` / `error`
    /// events, progress counting, and changes marked as coming from the server.
    func observed(_ operation: SyncOperation, _ body: () async throws -> SyncReport) async throws -> SyncReport {
        emit(.started(operation))
        do {
            let report = try await ObjectStore.$progress.withValue(ProgressCounter()) {
                try await ObjectStore.$changeOrigin.withValue(.server) { try await body() }
            }
            emit(.finished(operation, report))
            return report
        } catch {
            emit(.error(operation, OfflineStoreError.sync(error)))
            throw error
        }
    }

    /// The counter of the observed run the current task belongs to (nil outside one).
    @TaskLocal static var progress: ProgressCounter?

    /// Reports answered entries of a pushed batch.
    func reportPushProgress(_ collection: String, answered: Int) {
        guard let counter = ObjectStore.progress else { return }
        let waiting = { [self] in
            try? read("counting the queue") { db in
                try Int.fetchOne(db, sql: """
                    SELECT count(*) FROM queue WHERE collection = ? AND state = 'pending' AND NOT (\(ObjectStore.heldBackClause))
                    """, arguments: [collection])
            }
        }
        emit(.progress(counter.advance(collection, .push, by: answered, total: { answered + (waiting() ?? 0) })))
    }

    /// Reports a pulled page.
    func reportPullProgress(_ collection: String, page: PullPage) {
        guard let counter = ObjectStore.progress else { return }
        emit(.progress(counter.advance(collection, .pull, by: page.changes.count, total: { page.total })))
    }
}

/// Counts processed items per collection and direction within one run.
final class ProgressCounter: Sendable {
    private struct Key: Hashable { let collection: String; let direction: SyncProgress.Direction }
    private struct State {
        var processed: [Key: Int] = [:]
        var totals: [Key: Int?] = [:]
        var cumulative = 0
    }
    private let state = Locked(State())

    /// Adds `count` items; the total is learned on the collection's first event of the run.
    func advance(_ collection: String, _ direction: SyncProgress.Direction, by count: Int,
                 total: () -> Int?) -> SyncProgress {
        let key = Key(collection: collection, direction: direction)
        let known = state.withLock { $0.totals[key] }
        let firstTotal: Int?? = known == nil ? .some(total()) : nil
        return state.withLock { s in
            if let firstTotal, s.totals[key] == nil { s.totals[key] = firstTotal }
            s.processed[key, default: 0] += count
            s.cumulative += count
            return SyncProgress(collection: collection, direction: direction, total: s.totals[key] ?? nil,
                                processed: s.processed[key] ?? 0, cumulative: s.cumulative)
        }
    }
}
