import Foundation

/// Makes the store's observations see writes committed by other processes on the same
/// file (an app extension, `offline-store update`), which GRDB's observation cannot see
/// by itself: it learns of changes from the writes of its own connection.
///
/// While at least one observation (a value observation or a ``ObjectStore/commits()``
/// stream) runs, a task reads the writer connection's data version
/// (``LocalStore/writerDataVersion()``) every ``ObjectStore/Configuration/externalChangeInterval``.
/// SQLite changes that number on a connection exactly when *another* connection committed;
/// in this process only the writer writes, so a change means another process (or another
/// store instance on the file) wrote. Then every observation of the store fetches again
/// (those whose value did not change yield nothing: they remove duplicates) and commit
/// streams hear of it (``LocalStore/announceExternalCommit()``). With no observation
/// running, nothing polls.
final class ExternalChangeWatcher: @unchecked Sendable {
    // @unchecked: `observers`, `task` and `seen` are only read and written under `lock`.
    private let lock = NSLock()
    private var observers = 0
    private var task: Task<Void, Never>?
    /// The last polling task cancelled, which ends at its next wake-up (``stopped()``).
    private var cancelled: Task<Void, Never>?
    /// The data version last seen (at the store's open, then by each poll), kept between
    /// polling sessions: a commit made just before a session's first poll is not missed.
    private var seen: Int?

    /// The writer's data version when the store opened: the first session compares with it.
    func start(at version: Int) {
        lock.lock()
        defer { lock.unlock() }
        seen = version
    }

    /// One more observation runs; the first one starts the polling task.
    func observationStarted(store: LocalStore, interval: Duration?, logger: @escaping @Sendable (String) -> Void) {
        guard let interval else { return }
        lock.lock()
        defer { lock.unlock() }
        observers += 1
        guard observers == 1 else { return }
        // The store held weakly: a cancelled task ends at its next wake-up, which must not
        // keep a closed and released store alive until then.
        let current: @Sendable () -> LocalStore? = { [weak store] in store }
        task = Task.detached { [self] in await poll(every: interval, logger: logger, store: current) }
    }

    /// One observation ended; the last one stops the polling task.
    func observationEnded(interval: Duration?) {
        guard interval != nil else { return }
        lock.lock()
        defer { lock.unlock() }
        observers = max(0, observers - 1)
        guard observers == 0 else { return }
        task?.cancel()
        if let task { cancelled = task }
        task = nil
    }

    /// Returns once the polling task has ended: at once when none ran, else when the last
    /// one cancelled (the last observation ended) or still running stops.
    func stopped() async {
        let last: Task<Void, Never>? = {
            lock.lock()
            defer { lock.unlock() }
            return task ?? cancelled
        }()
        await last?.value
    }

    /// Whether the polling task runs (for tests).
    var isPolling: Bool {
        lock.lock()
        defer { lock.unlock() }
        return task != nil
    }

    private func poll(every interval: Duration, logger: @Sendable (String) -> Void,
                      store: @Sendable () -> LocalStore?) async {
        do {
            if lastSeen == nil, let local = store() { setSeen(try await local.writerDataVersion()) }
            while true {
                try await Task.sleep(for: interval)
                guard let local = store() else { return }
                let now = try await local.writerDataVersion()
                guard now != lastSeen else { continue }
                setSeen(now)
                try await local.announceExternalCommit()
            }
        } catch is CancellationError {
            return
        } catch {
            // The store was closed, or the file became unreadable: observations report
            // their own errors; this only stops looking for other processes' writes.
            logger("stopped watching for other processes' writes: \(error)")
        }
    }

    private var lastSeen: Int? {
        lock.lock()
        defer { lock.unlock() }
        return seen
    }

    private func setSeen(_ version: Int) {
        lock.lock()
        defer { lock.unlock() }
        seen = version
    }
}
