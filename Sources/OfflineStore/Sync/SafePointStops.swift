/// The reasons other than task cancellation for a flush, refresh or sync to stop at its
/// next safe point (``SyncCancellation/check(_:)`` asks): the store was suspended, or the
/// run's time budget is nearly spent. Both leave the run as cancellation does: nothing
/// half done, what was not sent still queued.
enum SafePointStops {
    /// The stop the current run must make here, if any.
    static func check(_ what: String) -> OfflineStoreError? {
        if let suspended = suspended(what) { return suspended }
        if let watch = SyncBudgetWatch.current, watch.mustStop() {
            return OfflineStoreError(.cancelled, "\(what) stopped to stay within its time budget; what was not sent stays queued")
        }
        return nil
    }

    /// The stop when the store was suspended, else nil.
    static func suspended(_ what: String) -> OfflineStoreError? {
        guard let suspension = SyncSuspension.current, suspension.isSuspended else { return nil }
        return OfflineStoreError(.cancelled,
            "\(what) stopped because the store was suspended (the app is going to the background); what was not sent stays queued")
    }
}

/// The clock of one time-budgeted run: how long it has taken, its longest step, and
/// whether it stopped for its budget. Asked at every safe point (``SyncBudget`` decides).
final class SyncBudgetWatch: Sendable {
    private struct State {
        var lastSafePoint: Duration = .zero
        var longestStep: Duration = .zero
        var stopped = false
    }

    let budget: SyncBudget
    /// The time since the run began, on the caller's clock.
    private let elapsed: @Sendable () -> Duration
    private let state = Locked(State())

    /// The budget of the run the current task belongs to (nil for runs without one).
    @TaskLocal static var current: SyncBudgetWatch?

    init(budget: SyncBudget, elapsed: @escaping @Sendable () -> Duration) {
        self.budget = budget
        self.elapsed = elapsed
    }

    /// Whether the run stops here: measures the step that just ended, then asks the rule.
    func mustStop() -> Bool {
        let now = elapsed()
        return state.withLock { s in
            s.longestStep = max(s.longestStep, now - s.lastSafePoint)
            s.lastSafePoint = now
            if budget.decide(elapsed: now, longestStep: s.longestStep) == .stop { s.stopped = true }
            return s.stopped
        }
    }

    /// The budget ran out (the watchdog): the run is stopping for it, wherever it is.
    func expire() { state.withLock { $0.stopped = true } }

    /// Whether the run stopped (or is stopping) for its budget.
    var stopped: Bool { state.withLock { $0.stopped } }
}
