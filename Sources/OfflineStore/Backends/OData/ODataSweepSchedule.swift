/// Which refreshes of an entity set pulled by a changed-since property are full pulls that
/// find deletions by absence (pure): ``ODataEntitySetSettings/sweepEvery``.
///
/// The cursor counts the refreshes since the last full pull, that one included
/// (``ODataChangedSinceCursor/refreshes``). A refresh without a cursor is a full pull; a
/// refresh whose cursor counts `sweepEvery` or more is one too, and counts 1 again; any other
/// is incremental and counts one more. So with `sweepEvery` 3 the refreshes 1, 4, 7, … are
/// full pulls, and a deletion made after refresh 1 is found by refresh 4; with 1, every
/// refresh is.
enum ODataSweepSchedule {
    /// How one refresh pulls.
    enum Pull: Sendable, Equatable {
        /// The whole set by key; the engine sweeps deletions after it.
        case full
        /// What changed since the cursor (less the margin); no sweep.
        case incremental
    }

    /// The pull of the refresh after `refreshes` refreshes since the last full pull (nil: no
    /// cursor), and the count the cursor of that refresh carries.
    static func next(after refreshes: Int?, sweepEvery: Int) -> (pull: Pull, refreshes: Int) {
        guard let refreshes, refreshes >= 1, refreshes < max(1, sweepEvery) else { return (.full, 1) }
        return (.incremental, refreshes + 1)
    }
}
