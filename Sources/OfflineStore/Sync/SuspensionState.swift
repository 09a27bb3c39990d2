/// The state of a store's suspension (``ObjectStore/suspend(within:postingDatabaseNotification:)``)
/// as a value: whether it is suspended, whether the suspension's deadline has passed, and
/// who waits. Its methods change the state and return what the caller must do once it has
/// left the lock: resume waiting tasks, run interruptions. ``SyncSuspension`` keeps it in a lock.
struct SuspensionState {
    /// What the deadline does to one thing in flight: cancel a request, wake the task that
    /// cancels the run.
    typealias Action = @Sendable () -> Void

    /// Whether the store is suspended.
    private(set) var suspended = false
    /// Counts suspensions, so that the deadline of one cannot cut a later one short.
    private(set) var epoch = 0
    /// Whether the current suspension's deadline has passed: what the holder of the sync
    /// lock still runs is being cancelled.
    private(set) var interrupted = false
    private var nextID = 0
    /// Tasks waiting for ``resume()``.
    private var resumeWaiters: [Int: CheckedContinuation<Void, any Error>] = [:]
    /// What to run when the deadline passes.
    private var interruptions: [Int: Action] = [:]

    /// A new id for ``waitForResume(_:id:)`` or ``onInterruption(_:id:)``.
    mutating func makeID() -> Int {
        nextID += 1
        return nextID
    }

    /// Suspends; returns the suspension's epoch (the same one when it was suspended already).
    mutating func suspend() -> Int {
        if !suspended {
            suspended = true
            epoch += 1
        }
        return epoch
    }

    /// Ends the suspension (and its interruption); returns every task that waited, to resume.
    mutating func resume() -> [CheckedContinuation<Void, any Error>] {
        suspended = false
        interrupted = false
        defer { resumeWaiters.removeAll() }
        return Array(resumeWaiters.values)
    }

    /// The deadline of suspension `epoch` has passed: returns every interruption registered, to
    /// run, and remembers it, so that one registered later runs at once. Nothing when that
    /// suspension has ended (a deadline that fired after ``resume()``).
    mutating func interrupt(epoch: Int) -> [Action] {
        guard suspended, epoch == self.epoch else { return [] }
        interrupted = true
        defer { interruptions.removeAll() }
        return Array(interruptions.values)
    }

    /// Registers a task that waits for ``resume()``; returns false, registering nothing, when
    /// it need not wait (not suspended).
    mutating func waitForResume(_ continuation: CheckedContinuation<Void, any Error>, id: Int) -> Bool {
        guard suspended else { return false }
        resumeWaiters[id] = continuation
        return true
    }

    /// Registers what to run when the deadline passes; returns false, registering nothing,
    /// when it has passed already (the caller runs it at once).
    mutating func onInterruption(_ action: @escaping Action, id: Int) -> Bool {
        guard !interrupted else { return false }
        interruptions[id] = action
        return true
    }

    /// Removes a task waiting for ``resume()`` (it was cancelled); returns it if it still waited.
    mutating func stopWaitingForResume(_ id: Int) -> CheckedContinuation<Void, any Error>? {
        resumeWaiters.removeValue(forKey: id)
    }

    /// Removes an interruption (what it would stop has ended); returns it if it was still there.
    mutating func removeInterruption(_ id: Int) -> Action? {
        interruptions.removeValue(forKey: id)
    }
}
