/// Deletions found by a sweep (pure): a server without tombstones deletes rows, and a pull
/// that lists every live record is the only way to see that a record is gone
/// (``BackendTraits/sweepsDeletions``, `RESTResource.Deletions.sweep`).
enum DeletionSweepRule {
    /// Whether a refresh sweeps after its main pull: the backend sweeps the collection, the
    /// pull started from the beginning (a full refresh, a first pull, a feed without a
    /// cursor), and the store holds server copies that could be gone. A scoped pull lists the
    /// scope's records, so a sweep then also removes copies that left the scope.
    static func sweeps(backendSweeps: Bool, fromTheBeginning: Bool, holdsServerCopies: Bool) -> Bool {
        backendSweeps && fromTheBeginning && holdsServerCopies
    }

    /// Whether a pull must keep the ids it brings although no sweep is planned: it starts from
    /// a cursor on a backend that sweeps, so it may start over from the beginning
    /// (``PullPage/restartedFromTheBeginning``) and then sweep after all.
    static func collectsForRestart(backendSweeps: Bool, fromTheBeginning: Bool) -> Bool {
        backendSweeps && !fromTheBeginning
    }

    /// What happens to the object `row`, with `queued` queue entries, after a complete pull
    /// that `listed` (or did not list) its record: a listed record stays; an unlisted one goes
    /// unless something local is pending (an edit, a failed entry, a conflict), which is never
    /// dropped: its update then meets the deletion on the server as a conflict.
    static func fate(of row: ObjectRow, queued: Bool, listed: Bool) -> ScopeRule.Departure {
        listed ? .keep : ScopeRule.departure(of: row, queued: queued)
    }
}
