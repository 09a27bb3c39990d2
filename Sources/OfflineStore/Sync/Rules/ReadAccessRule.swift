/// What a refresh does when a collection's pull fails (pure, no I/O; Docs/Auth.md, "Sharing
/// and lost access"): a refusal (403, or a 404 on its records) stops that collection only;
/// when the store had read it before, read access was withdrawn and the collection's
/// ``ReadAccessLossPolicy`` applies; every other error stops the run.
enum ReadAccessRule: Equatable, Sendable {
    /// Not about this collection (401, offline, timeout, a server error, cancelled): the run stops.
    case stopRun
    /// Refused, but the store never read it: named in the report, nothing local to act on.
    case refuse
    /// Read access withdrawn: refused, local copies kept, a ``SyncEvent/readAccessLost(_:)``.
    case keep
    /// Read access withdrawn: refused, synced copies removed, pending edits failed, an event.
    case purge

    /// The decision for a pull that failed with `error`; `wasRead`: the collection has a
    /// pull cursor or holds server copies.
    static func decide(_ error: OfflineStoreError, wasRead: Bool, policy: ReadAccessLossPolicy) -> ReadAccessRule {
        guard isReadRefusal(error) else { return .stopRun }
        guard wasRead else { return .refuse }
        switch policy {
        case .keep: return .keep
        case .purge: return .purge
        }
    }

    /// Whether a pull's error refuses the collection: a 403 (``FailureRule/isCollectionRefusal(_:)``),
    /// or a 404 on its records from a backend that hides what the user may not read.
    static func isReadRefusal(_ error: OfflineStoreError) -> Bool {
        FailureRule.isCollectionRefusal(error) || (error.code == .server && error.status == 404)
    }
}
