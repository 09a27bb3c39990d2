import Foundation

/// Runs `sync` on a schedule (Docs/Auth.md, "Scheduled sync"): every ``Configuration/interval`` after a run that
/// worked, exponential backoff with jitter after failures (``SyncSchedule``), at once when
/// the network comes back (``networkAvailable()``), never while paused. Queue entries whose
/// retry delay (`notBefore`, from Retry-After or the engine's backoff) has not passed are
/// left for a later run — an explicit `flush()` sends them at once.
///
/// ```swift
/// let auto = AutoSync(store: store, configuration: .init(interval: .seconds(60)))
/// let job = Task { await auto.run() }          // until stop() or cancellation
/// reachability.onChange { if $0 { auto.networkAvailable() } }
/// auto.pause(); auto.resume(); auto.stop()
/// ```
///
/// Time comes from an injected clock, and jitter from an injected random source, so tests
/// run the schedule under a `ManualClock` without waiting.
public final class AutoSync: Sendable {
    /// How the schedule runs.
    public struct Configuration: Sendable {
        /// The wait after a run that worked.
        public var interval: Duration
        /// The longest backoff after failures, unless the interval is longer. Default 15 minutes.
        public var maximumBackoff: Duration = .seconds(15 * 60)
        /// The clock waited on between runs. Default `ContinuousClock()`.
        public var clock: any Clock<Duration> = ContinuousClock()
        /// The jitter source: a number in [0, 1]. Default `Double.random(in: 0...1)`; inject a
        /// seeded sequence in tests.
        public var random: @Sendable () -> Double = { Double.random(in: 0...1) }

        /// A configuration with every other default.
        public init(interval: Duration) { self.interval = interval }
    }

    /// One finished run and the wait chosen before the next one.
    public struct Run: Sendable {
        /// 1 for the first run.
        public let number: Int
        /// What the run did (up to the stop, when it stopped early); nil when it could not start.
        public let report: SyncReport?
        /// Why the run failed, if it did (an ``OfflineStoreError``, with a ``OfflineStoreError/report`` when a sync run stopped early).
        public let failure: (any Error)?
        /// The wait before the next run.
        public let nextDelay: Duration
        /// How long the server asked us to wait, if it did.
        public var retryAfter: Duration? {
            (failure as? OfflineStoreError)?.retryAfter
        }
    }

    /// What the loop does after a run.
    public enum Decision: Sendable {
        /// Wait, then run again.
        case proceed
        /// End ``run(action:onRun:)``.
        case stop
    }

    private struct State {
        var schedule: SyncSchedule
        var paused = false
        var stopped = false
        var wakeRequested = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    /// The store synced.
    public let store: ObjectStore
    /// The settings.
    public let configuration: Configuration
    private let state: Locked<State>

    /// A schedule for `store`; nothing runs until ``run(action:onRun:)``.
    public init(store: ObjectStore, configuration: Configuration) {
        self.store = store
        self.configuration = configuration
        state = Locked(State(schedule: SyncSchedule(interval: configuration.interval,
                                                   maximumBackoff: configuration.maximumBackoff)))
    }

    /// Runs the schedule until ``stop()``, cancellation, or `onRun` answering `.stop`. The
    /// first run starts at once. A stop never interrupts a run: the current one finishes.
    ///
    /// - Parameters:
    ///   - action: one run; default `store.sync()`. It runs honouring retry delays.
    ///   - onRun: told about every run (in order) before the wait.
    public func run(action: (@Sendable (ObjectStore) async throws -> SyncReport)? = nil,
                    onRun: @Sendable (Run) async -> Decision = { _ in .proceed }) async {
        var number = 0
        while !Task.isCancelled {
            while isPaused, !isStopped, !Task.isCancelled { await waitForWake() }
            if isStopped || Task.isCancelled { return }
            number += 1
            let (report, failure) = await attempt(action)
            let run = state.withLock { s in
                let delay = failure == nil
                    ? s.schedule.succeeded()
                    : s.schedule.failed(retryAfter: Self.retryAfter(of: failure), jitter: configuration.random())
                return Run(number: number, report: report, failure: failure, nextDelay: delay)
            }
            if await onRun(run) == .stop || isStopped { return }
            await sleep(run.nextDelay)
        }
    }

    /// Stops after the current run (or at once when waiting).
    public func stop() {
        state.withLock { $0.stopped = true }
        wake()
    }

    /// No runs until ``resume()``; a run in progress finishes.
    public func pause() {
        state.withLock { $0.paused = true }
    }

    /// Runs again: at once when the pause held back a run.
    public func resume() {
        state.withLock { $0.paused = false }
        wake()
    }

    /// The network came back: the waiting run starts now (unless paused).
    public func networkAvailable() {
        wake()
    }

    /// Whether runs are paused.
    public var isPaused: Bool { state.withLock { $0.paused } }

    /// How many runs in a row failed.
    public var consecutiveFailures: Int { state.withLock { $0.schedule.consecutiveFailures } }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func attempt(_ action: (@Sendable (ObjectStore) async throws -> SyncReport)?) async -> (SyncReport?, (any Error)?) {
        do {
            let report: SyncReport
            if let action {
                // A custom action calls the public flush/sync; they honour retry delays inside it.
                report = try await SyncContext.$insideAutoSyncAction.withValue(true) { try await action(store) }
            } else {
                report = try await store.syncEngine.sync(honouringRetryDelays: true)
            }
            return (report, nil)
        } catch let stop as OfflineStoreError where stop.report != nil {
            return (stop.report, stop)
        } catch {
            return (nil, error)
        }
    }

    private static func retryAfter(of failure: (any Error)?) -> Duration? {
        (failure as? OfflineStoreError)?.retryAfter
    }

    /// Waits `delay` on the clock, or less when woken.
    private func sleep(_ delay: Duration) async {
        let clock = configuration.clock
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await clock.sleep(for: delay) }
            group.addTask { await self.waitForWake() }
            await group.next()
            group.cancelAll()
            self.wake()          // ends whichever wait is left
        }
        state.withLock { $0.wakeRequested = false }
    }

    /// Suspends until ``wake()`` (returns at once if a wake is pending).
    private func waitForWake() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { s -> Bool in
                    if s.wakeRequested || s.stopped { s.wakeRequested = false; return true }
                    s.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            self.wake()
        }
    }

    private func wake() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            guard let w = s.waiter else { s.wakeRequested = true; return nil }
            s.waiter = nil
            return w
        }
        waiter?.resume()
    }
}
