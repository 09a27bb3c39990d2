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
///
/// While the store is suspended (``suspend(within:clock:)``, for an app about to be
/// suspended: iOS terminates a suspended app that holds a file lock in a shared container),
/// the holder stops at its next safe point and nobody takes the file lock until ``resume()``;
/// runs started meanwhile wait for it. The holder's run goes on in a child task that the
/// suspension's deadline cancels (``SyncSuspension/runCancellableAtDeadline(_:)``), so a
/// request still in flight then cannot keep the lock.
final class SyncLock: Sendable {
    private struct State {
        var holders = 0
        var nextWaiter = 0
        var releaseWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let local = AsyncLock()
    private let file: SyncLockFile?
    private let state = Locked(State())
    /// Whether the store is suspended; the holder's safe points ask it.
    let suspension = SyncSuspension()

    /// A lock for the store at `storePath`; nil path: this process only.
    init(storePath: String?) {
        file = storePath.map { SyncLockFile(storePath: $0) }
    }

    /// The lock of the store at `location`, its file opened now when the store's protection
    /// class needs it (``KeptOpenFiles``).
    ///
    /// - Throws: ``OfflineStoreError/Code/storage`` when the lock file cannot be opened.
    convenience init(_ location: StoreLocation, _ configuration: ObjectStore.Configuration) throws {
        self.init(storePath: location.isInMemory ? nil : location.path)
        if location.keptOpen(configuration).syncLockFile { try file?.open() }
    }

    /// Runs `body` holding both locks; waits for other tasks and other processes first, and
    /// for ``resume()`` while suspended.
    ///
    /// - Parameter report: what is left, for the error of a wait that was cancelled.
    /// - Throws: what `body` throws; ``OfflineStoreError/Code/storage`` when the lock file
    ///   cannot be opened; ``OfflineStoreError/Code/cancelled`` with `report()` (nothing was
    ///   done) when the task is cancelled while another process holds the lock.
    func withLock<T: Sendable>(whenCancelledWaiting report: () -> SyncReport,
                               _ body: () async throws -> T) async throws -> T {
        try await local.withLock {
            do { try await acquireFile() } catch is CancellationError {
                throw SyncCancellation.stop("waiting for another process's sync to finish").stoppingRun(after: report())
            }
            setHeld(+1)
            defer {
                file?.unlock()
                setHeld(-1)
            }
            return try await SyncSuspension.$current.withValue(suspension) {
                try await suspension.runCancellableAtDeadline(body)
            }
        }
    }

    /// Takes the file lock, never while suspended: waits for ``resume()`` first, and gives a
    /// lock taken in the instant a suspension began back at once.
    private func acquireFile() async throws {
        while true {
            try await suspension.waitWhileSuspended()
            guard let file else { return }
            guard try await file.lock(while: { !self.suspension.isSuspended }) else { continue }
            if !suspension.isSuspended { return }
            file.unlock()
        }
    }

    /// Suspends: a run holding the lock stops at its next safe point, and no run takes the
    /// lock until ``resume()``. Returns once nobody in this process holds it: when the run
    /// has not stopped `deadline` after the call (on `clock`), or when the calling task is
    /// cancelled, what it still has in flight is cancelled first.
    func suspend<C: Clock & Sendable>(within deadline: Duration, clock: C) async where C.Duration == Duration {
        let epoch = suspension.suspend()
        let end = clock.now.advanced(by: deadline)
        let suspension = self.suspension
        let timer = Task {
            guard (try? await clock.sleep(until: end, tolerance: nil)) != nil else { return }
            suspension.interrupt(epoch: epoch)
        }
        await withTaskCancellationHandler {
            await waitUntilReleased()
        } onCancel: {
            suspension.interrupt(epoch: epoch)
        }
        timer.cancel()
    }

    /// Ends a suspension: runs waiting for it take the lock in turn.
    func resume() { suspension.resume() }

    /// Whether a flush, refresh or reset of this store runs now, in this process or in
    /// another one on the same file.
    var isHeld: Bool {
        state.withLock { $0.holders > 0 } || (file?.isHeldByAnyone ?? false)
    }

    private func setHeld(_ change: Int) {
        let released = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.holders += change
            guard s.holders == 0 else { return [] }
            defer { s.releaseWaiters.removeAll() }
            return Array(s.releaseWaiters.values)
        }
        for waiter in released { waiter.resume() }
    }

    /// Returns when no task of this process holds the lock.
    private func waitUntilReleased() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let free = state.withLock { s -> Bool in
                if s.holders == 0 { return true }
                s.nextWaiter += 1
                s.releaseWaiters[s.nextWaiter] = continuation
                return false
            }
            if free { continuation.resume() }
        }
    }
}
