/// One page of a pull, as the engine asks a backend for it: ``Backend/pull(_:delivering:)``.
///
/// A refresh sends one request per page: the first with ``continuation`` nil, each next one
/// with the previous page's ``PullPage/next``. The other members stay the same for every
/// page of one pull.
public struct PullRequest: Sendable, Hashable {
    /// The collection.
    public var collection: String
    /// Where the pull starts: what the backend answered as ``PullPage/cursor`` before, stored
    /// by the engine once that page was applied. The backend's own opaque text (a timestamp,
    /// an `updated_at`, a delta link); nil pulls from the beginning: every live record (a
    /// full pull, which may find deletions by absence, ``BackendTraits/sweepsDeletions``).
    public var cursor: String?
    /// The previous page's ``PullPage/next``; nil for a pull's first page.
    public var continuation: PullContinuation?
    /// Only the records matching this query are wanted (a sync scope,
    /// ``CollectionDescriptor/syncScope``); nil for every record. The backend may send it to
    /// the server as a filter, or drop it (a server that cannot filter by it, a delta link
    /// that forgets the filter): the engine keeps only the records that match and every
    /// tombstone of what arrives, so dropping the scope costs bandwidth, nothing else.
    public var scope: ServerQuery?
    /// What the engine would not miss: a backend may honour these hints or ignore them.
    public var hints: Hints

    /// What a page may leave out, as the engine tells a backend.
    public struct Hints: Sendable, Hashable {
        /// False when the store holds no server copy of the collection's records, so the page
        /// may leave deletions out where listing live records only is cheaper (Kinto: no
        /// `_since` for a nil cursor). Default true.
        public var needsDeletions: Bool
        /// Only these fields of each record are needed besides its id and version, tombstones
        /// included: the light pull that finds records that left a sync scope, whose partial
        /// records the engine never stores. Nil (the default): whole records.
        public var fields: [String]?

        /// Creates hints; the defaults ask for everything.
        public init(needsDeletions: Bool = true, fields: [String]? = nil) {
            self.needsDeletions = needsDeletions
            self.fields = fields
        }
    }

    /// Creates a request for a pull's first page (pass `continuation` for a later one).
    public init(collection: String, cursor: String? = nil, continuation: PullContinuation? = nil,
                scope: ServerQuery? = nil, hints: Hints = Hints()) {
        self.collection = collection
        self.cursor = cursor
        self.continuation = continuation
        self.scope = scope
        self.hints = hints
    }

    /// The same pull's request for the page `next` leads to.
    public func continuing(_ next: PullContinuation?) -> PullRequest {
        var request = self
        request.continuation = next
        return request
    }
}

extension PullPage {
    /// The page with only the records matching `scope`, and every tombstone (a deleted
    /// record carries no field to match): how the engine applies a ``PullRequest/scope``
    /// whatever the backend did with it, and how a backend filters one itself.
    public func keeping(_ scope: ServerQuery?) -> PullPage {
        guard scope != nil else { return self }
        var page = self
        page.changes = changes.keeping(scope)
        return page
    }
}

extension [RemoteChange] {
    /// The records matching `scope` and every tombstone (``PullPage/keeping(_:)``).
    func keeping(_ scope: ServerQuery?) -> [RemoteChange] {
        guard let scope else { return self }
        return filter { change in change.record.map(scope.matches) ?? true }
    }
}
