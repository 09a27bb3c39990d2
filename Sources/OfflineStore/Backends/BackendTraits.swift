/// What a backend tells the engine about one of its collections, in one value: what the
/// server does that the engine must know (``Backend/traits(of:)``). The defaults describe a
/// Kinto-like server: client ids, tombstones, creates recognised when resent, records
/// returned as sent.
public struct BackendTraits: Sendable, Hashable {
    /// Reference fields of the collection's objects, field → referenced collection. The
    /// engine sends a referenced create first, holds back edits that point at an uncreated
    /// object, and rewrites the references when the server assigns the real id. Default none.
    public var associations: [String: String]
    /// Whether the server assigns the ids of new objects, so that a create's answer may carry
    /// another id and the engine re-keys the object. Default false: a create's answer naming
    /// another id is then a bad answer, never a reason to re-key.
    public var assignsIDs: Bool
    /// Whether a pull from the beginning (a nil ``PullRequest/cursor``) lists every live
    /// record, so that synced objects it does not list (and that have nothing pending) were
    /// deleted on the server and are removed after it: deletions found by absence, for a
    /// server without tombstones. Default false: the pull reports deletions itself.
    public var sweepsDeletions: Bool
    /// Whether the server cannot recognise a create sent again after its answer was lost, so
    /// the engine refreshes the collection before resending one, and a pulled record holding
    /// every field the create sent is taken as its answer (`LostAnswerRule`). Default false:
    /// a resent create is recognised by the server (Kinto's `If-None-Match: *` with client
    /// ids, an idempotency key) or by the backend.
    public var refreshesBeforeResendingCreates: Bool
    /// The fields the server writes itself (timestamps a REST resource never sends, for
    /// example), by local name: a pulled record that differs from a write this store sent
    /// only in these is that write coming back (`LostAnswerRule`). Default none (Kinto adds
    /// only `last_modified`, which never reaches the copies).
    public var serverManagedFields: Set<String>

    /// Creates traits; the defaults describe a Kinto-like server.
    public init(associations: [String: String] = [:], assignsIDs: Bool = false, sweepsDeletions: Bool = false,
                refreshesBeforeResendingCreates: Bool = false, serverManagedFields: Set<String> = []) {
        self.associations = associations
        self.assignsIDs = assignsIDs
        self.sweepsDeletions = sweepsDeletions
        self.refreshesBeforeResendingCreates = refreshesBeforeResendingCreates
        self.serverManagedFields = serverManagedFields
    }
}

extension Backend {
    /// The defaults: a Kinto-like server (``BackendTraits/init(associations:assignsIDs:sweepsDeletions:refreshesBeforeResendingCreates:serverManagedFields:)``).
    public func traits(of collection: String) -> BackendTraits { BackendTraits() }
}
