import Foundation
import OfflineStore

/// Follows the store's commits, by this process or any other, and counts them as a
/// *generation* the page polls: when it moves, the page reloads what it shows.
///
/// The commits come from the library (``ObjectStore/commits()``): this store's own writes
/// at once, other processes' as the store's change watcher notices them (every
/// ``ObjectStore/Configuration/externalChangeInterval``). They are looked at every
/// ``interval`` at most, so a sync that commits page after page costs one look of the
/// queue per interval, not one per commit. The watcher never writes and runs no SQL.
final class ChangeWatcher: Sendable {
    /// How often received commits are looked at.
    let interval: Duration
    private let history: QueueHistory
    private let store: ObjectStore
    /// The store's commits from the watcher's creation on, received by ``run()``.
    private let commits: AsyncStream<StoreCommit>
    private let state = Locked(State())

    private struct State {
        /// Whether commits arrived since the last look (true before the first look: the baseline).
        var unseen = true
        var generation = 0
    }

    init(store: ObjectStore, history: QueueHistory, interval: Duration = .milliseconds(250)) {
        self.store = store
        self.history = history
        self.interval = interval
        commits = store.commits()
    }

    /// How many changes were seen since the inspector started.
    var generation: Int { state.withLock { $0.generation } }

    /// Notes that the store's file changed (one element of ``ObjectStore/commits()``).
    func receive(_ commit: StoreCommit) {
        state.withLock { $0.unseen = true }
    }

    /// Looks once: when commits arrived since the last look, moves the generation and
    /// notes what the queue did. Returns whether it looked.
    @discardableResult
    func check() -> Bool {
        let changed = state.withLock { s -> Bool in
            defer { s.unseen = false }
            return s.unseen
        }
        guard changed else { return false }
        history.observe(store)
        state.withLock { $0.generation += 1 }
        return true
    }

    /// Receives the store's commits, and looks every ``interval``, until the task is cancelled.
    func run() -> Task<Void, Never> {
        Task { [self] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for await commit in self.commits { self.receive(commit) } }
                group.addTask {
                    while !Task.isCancelled {
                        self.check()
                        try? await Task.sleep(for: self.interval)
                    }
                }
            }
        }
    }
}
