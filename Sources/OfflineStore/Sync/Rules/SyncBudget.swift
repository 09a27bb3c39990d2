/// Whether a time-budgeted sync (``ObjectStore/sync(within:clock:)``) takes its next step:
/// a pure rule, asked at every safe point (before a batch is sent, a page is fetched, a
/// blob is uploaded).
///
/// A step is the work between two safe points: one request and what is written with its
/// answer. The run goes on only when the step it is about to take, as long as the
/// longest step so far, still ends before the budget does, with a ``reserve`` to spare
/// for returning (a background task's expiration must not catch the app still working).
struct SyncBudget: Sendable, Hashable {
    /// The whole time the run may take.
    let budget: Duration

    init(_ budget: Duration) { self.budget = budget }

    /// Time kept free at the end: a tenth of the budget, at most two seconds.
    var reserve: Duration { min(budget / 10, .seconds(2)) }

    /// What the run does at a safe point.
    enum Decision: Sendable, Hashable {
        /// Take the next step.
        case goOn
        /// Stop here; the rest waits for the next run.
        case stop
    }

    /// The decision at a safe point `elapsed` after the run began, when its longest step
    /// so far took `longestStep` (zero before the first).
    func decide(elapsed: Duration, longestStep: Duration) -> Decision {
        elapsed + longestStep + reserve < budget ? .goOn : .stop
    }
}
