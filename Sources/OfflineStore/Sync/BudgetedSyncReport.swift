/// What a time-budgeted sync did (``ObjectStore/sync(within:clock:)``).
public struct BudgetedSyncReport: Sendable, Hashable {
    /// What the run did, and what is left in the store.
    public var report: SyncReport
    /// Whether the run stopped at a safe point to stay within its budget: the rest (see
    /// ``SyncReport/pending``) waits for the next run. False when it did all it had to.
    public var stoppedAtBudget: Bool

    /// Creates a report.
    public init(report: SyncReport, stoppedAtBudget: Bool) {
        self.report = report
        self.stoppedAtBudget = stoppedAtBudget
    }
}
