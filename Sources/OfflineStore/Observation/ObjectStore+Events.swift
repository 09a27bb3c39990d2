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
