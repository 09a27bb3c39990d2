/// What a refresh does when a collection's pull fails (pure, no I/O; Docs/Auth.md, "Sharing
/// and lost access"): a refusal (403, or a 404 on its records) stops that collection only;
/// when the store had read it before, read access was withdrawn and the collection's
/// ``ReadAccessLossPolicy`` applies, once: a kept collection whose loss the app was already
/// told of is only refused again, until a pull of it succeeds; every other error stops the run.
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
    /// pull cursor or holds server copies; `told`: the app was told of this loss already
    /// (a kept collection refused again).
    static func decide(_ error: OfflineStoreError, wasRead: Bool, told: Bool = false,
                       policy: ReadAccessLossPolicy) -> ReadAccessRule {
        guard isReadRefusal(error) else { return .stopRun }
        guard wasRead, !told else { return .refuse }
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
