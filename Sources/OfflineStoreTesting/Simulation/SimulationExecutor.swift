import Foundation

/// A task executor that runs its jobs one at a time, in the order they came, on the thread
/// that drives the simulation: every client task of a run prefers it, so the store code of
/// all clients interleaves only where a client waits for the simulated network, and the
/// order follows from the seed alone, never from thread timing.
///
/// The lock (``condition``) also guards the network's state, so that the check "nothing to
/// run and every client waits for the network" is one atomic look.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class SimulationExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` is only read and written while `condition` is locked.
    let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` holding the lock.
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    /// Wakes the driving thread after a change made under the lock by another thread.
    func signal() {
        condition.lock()
        condition.signal()
        condition.unlock()
    }

    /// Runs queued jobs until none is left and `isQuiet` (asked under the lock) holds.
    ///
    /// Store code that leaves this executor (the flush runs its request in an unstructured
    /// task, which has no executor preference: it starts on this thread and runs elsewhere
    /// after its first suspension) comes back by a network call or by a job queued here;
    /// until then `isQuiet` is false and the thread waits for that signal.
    /// - Returns: false when `deadline` passed first (a client waits for something the
    ///   simulation does not control: a bug of the simulation or of the store).
    func runUntilQuiet(deadline: Date, isQuiet: () -> Bool) -> Bool {
        while true {
            condition.lock()
            while jobs.isEmpty && !isQuiet() {
                if !condition.wait(until: deadline) {
                    condition.unlock()
                    return false
                }
            }
            if jobs.isEmpty {
                condition.unlock()
                return true
            }
            let batch = jobs
            jobs.removeAll()
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
