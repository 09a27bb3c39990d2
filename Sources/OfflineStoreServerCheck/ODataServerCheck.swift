import OfflineStore

/// What ``ODataBackend/checkServer(entitySets:samples:transport:)`` found on an OData
/// service: for each entity set, how the service behaves where services differ, whether the
/// store relies on it, what the store does about it, and what to change when it fails.
///
/// The rows are built from what the probe saw (``ODataProbeFacts``) by a pure function
/// (``init(facts:)``), so each verdict is tested without a server.
public struct ODataServerCheck: Sendable, Hashable {
    /// One row per entity set and guarantee, by entity set then guarantee.
    public var rows: [Row]

    /// Whether everything the store relies on holds (a failing row it does not rely on, such
    /// as a service without change tracking, says what the store does instead).
    public var holds: Bool { !rows.contains { $0.isMissing } }

    /// Creates a result.
    public init(rows: [Row]) { self.rows = rows }

    /// A behaviour of the service that sync meets.
    public enum Guarantee: String, Sendable, Hashable, CaseIterable {
        /// Entities carry ETags, and an update whose `If-Match` names an older one is refused with 412.
        case staleUpdate
        /// An update without `If-Match` is refused with 428, so no client overwrites blindly.
        case ifMatchRequired
        /// `Prefer: odata.track-changes` is honoured: a deltaLink that lists changes, deletions as `@removed`.
        case changeTracking
        /// A read of the whole set ends by `@odata.nextLink`, each entity once; whether `odata.maxpagesize` is honoured.
        case paging
        /// The service takes JSON `$batch` requests.
        case batch
        /// A failed atomicity group is answered as failed: no success listed for a request it undid.
        case atomicityGroups
        /// A create sent again for an existing key answers 409 (not 500 or another status).
        case resentCreate
        /// A delete sent again with its old ETag, after the entity is gone, answers 404 (not 412).
        case resentDelete
        /// What finding the set's deletions costs a refresh: nothing with change tracking, else a full read.
        case deletions
    }

    /// What the probe saw (``ServerCheckOutcome``).
    public typealias Outcome = ServerCheckOutcome

    /// One guarantee of one entity set.
    public struct Row: Sendable, Hashable {
        /// The entity set (the collection of the same name).
        public var collection: String
        /// The guarantee.
        public var guarantee: Guarantee
        /// What the probe saw.
        public var outcome: Outcome
        /// Whether the store relies on it (when it fails, `check-server` exits 2).
        public var reliedOn: Bool
        /// What happened, in a sentence.
        public var detail: String
        /// What the store does with what was seen.
        public var store: String
        /// What to change on the service or in the settings when it fails; else nil.
        public var fix: String?

        /// A guarantee the store relies on that does not hold.
        public var isMissing: Bool { reliedOn && outcome == .fails }

        /// Creates a row.
        public init(collection: String, guarantee: Guarantee, outcome: Outcome, reliedOn: Bool, detail: String,
                    store: String, fix: String?) {
            self.collection = collection
            self.guarantee = guarantee
            self.outcome = outcome
            self.reliedOn = reliedOn
            self.detail = detail
            self.store = store
            self.fix = fix
        }
    }
}

/// What the probe of one entity set saw, the input of ``ODataServerCheck/init(facts:)``.
/// A nil member was not observed; ``unchecked`` says why for each guarantee left out.
public struct ODataProbeFacts: Sendable, Hashable {
    /// The entity set.
    public var entitySet: String
    /// Why a guarantee could not be probed (the probe stopped, or it does not apply).
    public var unchecked: [ODataServerCheck.Guarantee: String] = [:]

    /// The ETag of the scratch entity after its create and after an update with it.
    public var createdETag: String?, updatedETag: String?
    /// The status of an update whose `If-Match` was the ETag before that update.
    public var staleUpdateStatus: Int?
    /// The status of an update without `If-Match`.
    public var noIfMatchStatus: Int?

    /// Whether the answer to a read with `Prefer: odata.track-changes` said `Preference-Applied: odata.track-changes`.
    public var trackChangesApplied = false
    /// Whether that read gave a deltaLink.
    public var deltaLink = false
    /// The status of the deltaLink read after the scratch entity was deleted.
    public var deltaStatus: Int?
    /// Whether that delta listed the deleted entity as removed.
    public var deltaListedRemoval: Bool?

    /// The full read: pages, entities listed, entities listed twice, entities on its first
    /// page when a nextLink followed it, and whether it stopped at the probe's page limit.
    public var pages: Int?, listed: Int?, repeated = 0, pageSize: Int?, endless = false
    /// `$count` of the set, when the service answers it.
    public var count: Int?
    /// `$count` of the set again after the whole read: another value means the set changed
    /// while it was read, and the number listed cannot be held against either.
    public var countAfter: Int?
    /// Whether a read with `Prefer: odata.maxpagesize=1` answered one entity and a nextLink.
    public var maxPageSizeHonoured: Bool?

    /// The status of `POST $batch` (nil: not sent).
    public var batchStatus: Int?
    /// Whether its answer was JSON with a `responses` array.
    public var batchListed = false
    /// The statuses listed for a failed atomicity group of a create then a stale update, by request id.
    public var groupAnswers: [String: Int] = [:]
    /// Whether the group's create was there afterwards (nil: not looked for).
    public var groupCreateApplied: Bool?

    /// The status of a create sent again with the key of the entity it made.
    public var resentCreateStatus: Int?
    /// A phrase for that answer's body.
    public var resentCreateBody: String?
    /// The status of a delete sent again with its ETag after the entity was deleted.
    public var resentDeleteStatus: Int?

    /// Facts about `entitySet`, nothing observed yet.
    public init(entitySet: String) { self.entitySet = entitySet }
}
