import Foundation

/// The right to sync a store: one flush, refresh or reset at a time, in this process and
/// across every process that opens the same store file.
///
/// Two locks, taken in order:
/// 1. an ``AsyncLock`` (FIFO, async) for the tasks of this store instance;
/// 2. an advisory `flock(2)` on the file `<store>.sync-lock` (``SyncLockFile``), for other
///    processes and other instances on the same file. The kernel releases it when the
///    holder's descriptor closes, including when the process is killed, so a crashed holder
///    never blocks the others, and nobody can take the lock while its holder lives.
///
/// That is what makes the flush's crash recovery safe with several processes: entries
/// left `in-flight` are put back to pending only by a flush that holds this lock, so only
/// once the process that sent them is gone. Stores without a file (in memory) have only
/// the first lock.
final class SyncLock: @unchecked Sendable {
    // @unchecked: `holders` is only read and written under `holdersLock`.
    private let local = AsyncLock()
    private let file: SyncLockFile?
    private let holdersLock = NSLock()
    private var holders = 0

    /// A lock for the store at `storePath`; nil path: this process only.
    init(storePath: String?) {
        file = storePath.map { SyncLockFile(storePath: $0) }
    }

    /// Runs `body` holding both locks; waits for other tasks and other processes first.
    ///
    /// - Parameter report: what is left, for the error of a wait that was cancelled.
    /// - Throws: what `body` throws; ``OfflineStoreError/Code/storage`` when the lock file
    ///   cannot be opened; ``OfflineStoreError/Code/cancelled`` with `report()` (nothing was
    ///   done) when the task is cancelled while another process holds the lock.
    func withLock<T: Sendable>(whenCancelledWaiting report: () -> SyncReport,
                               _ body: () async throws -> T) async throws -> T {
        try await local.withLock {
            do { try await file?.lock() } catch is CancellationError {
                throw SyncCancellation.stop("waiting for another process's sync to finish").stoppingRun(after: report())
            }
            setHeld(+1)
            defer {
                setHeld(-1)
                file?.unlock()
            }
            return try await body()
        }
    }

    /// Whether a flush, refresh or reset of this store runs now, in this process or in
    /// another one on the same file.
    var isHeld: Bool {
        holdersLock.lock()
        let here = holders > 0
        holdersLock.unlock()
        return here || (file?.isHeldByAnyone ?? false)
    }

    private func setHeld(_ change: Int) {
        holdersLock.lock()
        holders += change
        holdersLock.unlock()
    }
}
