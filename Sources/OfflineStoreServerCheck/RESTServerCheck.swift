import OfflineStore

/// What ``RESTBackend/checkServer(collections:samples:)`` found: for each resource, whether
/// each guarantee the store may rely on holds on the server, whether this resource
/// description relies on it, and what to change when it does not hold.
public struct RESTServerCheck: Sendable, Hashable {
    /// One row per resource and guarantee, by collection then guarantee.
    public var rows: [Row]

    /// Whether every guarantee the resources rely on holds (rows that fail but are not relied
    /// on, such as `concurrency: none`, are warnings).
    public var holds: Bool { !rows.contains { $0.isMissing } }

    /// Creates a result.
    public init(rows: [Row]) { self.rows = rows }

    /// A property of the server that sync needs.
    public enum Guarantee: String, Sendable, Hashable, CaseIterable {
        /// An update based on an older version is refused with 409 or 412.
        case staleUpdate
        /// A delete based on an older version is refused with 409 or 412.
        case staleDelete
        /// A pull since a cursor lists the changes after it, and not the records before it.
        case incrementalPull
        /// A record deleted on the server shows in the pull (a tombstone, or absent from a full list under `sweep`).
        case deletions
        /// A pull from the beginning ends, without a page repeated and with as many records as announced.
        case paging
        /// A create sent again with its idempotency key answers the first record (or the lookup finds it).
        case idempotentCreate
    }

    /// What the probe saw (``ServerCheckOutcome``).
    public typealias Outcome = ServerCheckOutcome

    /// One guarantee of one resource.
    public struct Row: Sendable, Hashable {
        /// The collection.
        public var collection: String
        /// The guarantee.
        public var guarantee: Guarantee
        /// What the probe saw.
        public var outcome: Outcome
        /// Whether the resource description relies on it (e.g. not `staleUpdate` under `concurrency: none`).
        public var reliedOn: Bool
        /// What happened, in a sentence.
        public var detail: String
        /// What to change (a resources setting, or the server recipe) when it does not hold; else nil.
        public var fix: String?

        /// A guarantee the resources rely on that does not hold.
        public var isMissing: Bool { reliedOn && outcome == .fails }

        /// Creates a row.
        public init(collection: String, guarantee: Guarantee, outcome: Outcome, reliedOn: Bool, detail: String, fix: String?) {
            self.collection = collection
            self.guarantee = guarantee
            self.outcome = outcome
            self.reliedOn = reliedOn
            self.detail = detail
            self.fix = fix
        }
    }
}

extension RESTServerCheck.Guarantee {
    /// Whether `resource` (on a backend sending `idempotencyHeader`) relies on the guarantee.
    func isReliedOn(by resource: RESTResource, idempotencyHeader: String?) -> Bool {
        let pulls = resource.pull.isEnabled
        switch self {
        case .staleUpdate, .staleDelete:
            if case .none = resource.concurrency { return false }
            return true
        case .incrementalPull: return pulls && resource.pull.cursorParameter != nil
        case .deletions, .paging: return pulls
        case .idempotentCreate:
            guard case .server = resource.ids else { return false }
            if resource.createLookupParameter != nil { return true }
            return resource.lostCreates == .replay && idempotencyHeader != nil
        }
    }

    /// What to change when the guarantee does not hold for `collection`.
    func fix(_ collection: String) -> String {
        let at = "resources.\(collection)"
        let recipe = "the server recipe (Docs/Backends.md, \"Server recipes\")"
        switch self {
        case .staleUpdate:
            return "answer 409 or 412 to an update whose If-Match (or version field) names an older version: \(recipe); "
                + "or write \"concurrency\": \"none\" in \(at) to accept that the last write wins"
        case .staleDelete:
            return "answer 409 or 412 to a delete whose If-Match (or version field) names an older version: \(recipe); "
                + "or write \"concurrency\": \"none\" in \(at) to accept that the last write wins"
        case .incrementalPull:
            return "list only the records changed after \(at).pull.cursorParameter (tombstones included): \(recipe); "
                + "or set \(at).pull.cursorParameter to null, so every pull reads the whole list"
        case .deletions:
            return "keep deleted records in the feed with \(at).pull.tombstoneField set (soft deletes): \(recipe); "
                + "or set \(at).pull.deletions to \"sweep\", so full pulls find them"
        case .paging:
            return "set \(at).pull.paging (and listKey, countField) to what the server answers: bodyLink for a next link "
                + "in the body, limitOffset, pageNumber, linkHeader, or cursor when it filters by the cursor"
        case .idempotentCreate:
            return "answer a create whose Idempotency-Key was seen with the record it made: \(recipe); or set "
                + "\(at).lostCreates to \"refresh\", so the store looks for the record before it resends a create"
        }
    }
}
