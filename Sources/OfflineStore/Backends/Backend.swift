/// A server's wire protocol, as the sync engine needs it: push queued operations,
/// pull changes page by page.
///
/// Implementations: `KintoBackend`, `RESTBackend`, and `InMemoryBackend` in
/// `OfflineStoreTesting`. A new backend implements five requirements —
/// ``capabilities()``, ``prepare(collection:)``, ``push(_:collection:)``,
/// ``pull(_:delivering:)`` and ``ping()`` — and may replace the defaults of the others: the
/// ids it accepts (``validate(id:in:)``), what it tells the engine about a collection
/// (``traits(of:)``), what the user may do in a collection (``prepareAccess(collection:)``),
/// reads of one record or a query (``fetch(collection:id:)``, ``search(collection:query:continuing:)``),
/// and the session it signs requests with (``authSession``).
/// Implementations must be safe to call from several tasks.
public protocol Backend: Sendable {
    /// Checks an id against the rules of one collection on the server, at edit time.
    ///
    /// Whatever a backend's pull can deliver must pass, so that the app can edit and delete it.
    /// The default accepts every id (the server's answer to a push refuses one it does not take).
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidID`` naming the rule.
    func validate(id: String, in collection: String) throws

    /// What the server can do (batch size); may ask the server once and cache it.
    ///
    /// - Throws: a transport or server error (``OfflineStoreError``).
    func capabilities() async throws -> BackendCapabilities

    /// Makes sure the collection exists on the server (creating it where allowed).
    func prepare(collection: String) async throws

    /// Makes sure the collection exists on the server, creating it only when it is missing
    /// and the user may create it, and says what the user may do in it. A collection the
    /// user can read but not write is ``CollectionAccess/readOnly``. The default
    /// implementation (in `Backend+Access.swift`) calls ``prepare(collection:)``.
    ///
    /// - Throws: ``OfflineStoreError/Code/forbidden`` when the user can neither create nor read it.
    func prepareAccess(collection: String) async throws -> CollectionAccess

    /// Sends operations of one collection, at most `capabilities().maxBatchSize`,
    /// none of which depends on another; returns one outcome per operation, in order.
    ///
    /// - Throws: ``OfflineStoreError`` for failures of the whole request:
    ///   `offline` (no connection), `timeout`, `unauthorized` (401), `forbidden` (403), `server`
    ///   (5xx or a batch that was not applied, with ``OfflineStoreError/retryAfter``).
    func push(_ operations: [PushOperation], collection: String) async throws -> [PushOutcome]

    /// Fetches one page of changes as `request` asks (``PullRequest``: the collection, where the
    /// pull starts, the previous page's continuation, the scope and the hints).
    ///
    /// A backend that reads a page as it arrives hands changes to `deliver` as they come, so
    /// that a page need not be held whole (`deliver` returns once the engine can take more:
    /// read on after it returns), and returns the page with the changes it did not deliver; a
    /// backend that reads a page at once delivers nothing and returns the whole page. Either
    /// way the engine stores the page's ``PullPage/cursor`` only after applying every change
    /// of it, and asks the next page with ``PullPage/next``; a page with `next == nil` is the last.
    func pull(_ request: PullRequest, delivering deliver: ([RemoteChange]) async throws -> Void) async throws -> PullPage

    /// Answers whether the server can be reached and accepts the credentials.
    func ping() async throws

    /// Fetches the server's current copy of one object; nil when it has no live copy.
    /// A default implementation (in `Backend+Fetch.swift`) searches by id.
    func fetch(collection: String, id: String) async throws -> RemoteChange?

    /// Fetches one page of the live records matching a query (no tombstones); pass the
    /// previous page's ``PullPage/next`` to continue. A default implementation filters a full pull.
    func search(collection: String, query: ServerQuery, continuing: PullContinuation?) async throws -> PullPage

    /// What the server does that the engine must know about the collection (server-assigned
    /// ids, deletions found by absence, …), in one value. The default (in
    /// `BackendTraits.swift`) describes a Kinto-like server.
    func traits(of collection: String) -> BackendTraits

    /// The session whose credentials the backend signs requests with, for login/logout;
    /// nil when its credentials are fixed. Default: nil (see `Auth/Backend+Auth.swift`).
    var authSession: AuthSession? { get }
}

/// What a backend's server can do.
public struct BackendCapabilities: Sendable, Hashable {
    /// The most operations one ``Backend/push(_:collection:)`` call may carry.
    public var maxBatchSize: Int
    /// Creates capabilities.
    public init(maxBatchSize: Int) { self.maxBatchSize = max(1, maxBatchSize) }
}

/// One queued operation as sent to the server.
public struct PushOperation: Sendable, Hashable {
    /// The object id.
    public var id: String
    /// Create, update or delete.
    public var kind: QueueEntry.Kind
    /// The object to send (nil for deletes); never contains server-owned fields.
    public var data: JSONValue?
    /// The version the edit is based on (If-Match); nil for creates (If-None-Match: *).
    public var baseVersion: String?
    /// A key the server can use to recognise a retried request.
    public var idempotencyKey: String
    /// Whether this entry was sent before and its answer never applied (a lost answer or a crash).
    public var isResend = false
    /// Which send of its queue entry this is: 1 for the first, 2 after one send whose answer
    /// asked to retry or was lost, … (a backend may give up on an answer that repeats, as
    /// `RESTBackend` does with a third 500).
    public var attempt = 1

    /// Creates an operation.
    public init(id: String, kind: QueueEntry.Kind, data: JSONValue?, baseVersion: String?, idempotencyKey: String) {
        self.id = id
        self.kind = kind
        self.data = data
        self.baseVersion = baseVersion
        self.idempotencyKey = idempotencyKey
    }
}

/// What the server did with one operation.
public enum PushOutcome: Sendable, Hashable {
    /// 2xx: the server's copy after the write (nil after a delete) and its version.
    case applied(record: JSONValue?, version: String?)
    /// A resent create whose record the server made and has deleted since (an
    /// idempotency-key replay or lookup naming a soft-deleted record): its last copy and
    /// version. The engine moves the object to the record's id, then applies the deletion
    /// as a pulled tombstone: removed without later local edits, a conflict with them.
    case createdThenDeleted(record: JSONValue, version: String?)
    /// 409/412: the server holds another version; its copy (nil if deleted) and version.
    case conflict(server: JSONValue?, version: String?)
    /// 4xx other than 401 and conflicts: the server refused the operation (403: the user may
    /// not write this record; the entry becomes a ``QueueEntry/Failure/forbidden`` failed entry).
    case rejected(status: Int, body: String?)
    /// 5xx or a sub-request that may succeed later; the entry stays pending.
    case retry(status: Int?, message: String, retryAfter: Duration?)
}

/// One page of server changes.
public struct PullPage: Sendable {
    /// The changes on this page.
    public var changes: [RemoteChange]
    /// The cursor to store once this page (and every earlier page) is applied; nil keeps the old one.
    public var cursor: String?
    /// How to fetch the next page; nil when this is the last.
    public var next: PullContinuation?
    /// The total number of changes the server announced, if it did.
    public var total: Int?
    /// Whether the pull this page belongs to started over from the beginning although it was
    /// asked from a cursor (the server refused the cursor: an expired delta link): its pages
    /// list every live record, as a pull with a nil ``PullRequest/cursor`` does, so a backend
    /// that finds deletions by absence (``BackendTraits/sweepsDeletions``) has them swept
    /// after its last page; when its last page has no cursor, the refused one is forgotten
    /// (the next pull starts from the beginning). Set on every page of such a pull. Default false.
    public var restartedFromTheBeginning = false

    /// Creates a page.
    public init(changes: [RemoteChange], cursor: String?, next: PullContinuation?, total: Int? = nil) {
        self.changes = changes
        self.cursor = cursor
        self.next = next
        self.total = total
    }
}

/// A backend's opaque token for the next page of a pull.
public struct PullContinuation: Sendable, Hashable {
    /// The backend's state, e.g. a next-page URL and the snapshot bound.
    public var token: String
    /// The next page's request (or requests: one per key range an OData pull reads at once),
    /// already sent by the backend while this page was read (a backend's own type, e.g.
    /// ``KintoPageAhead``); dropping the continuation cancels what no later continuation carries.
    /// Not part of the continuation's identity: two continuations with one token are equal.
    var ahead: (any AnyObject & Sendable)?

    /// Creates a continuation.
    public init(token: String) { self.token = token }

    /// A continuation carrying the next page's request, already sent.
    init(token: String, ahead: (any AnyObject & Sendable)?) {
        self.token = token
        self.ahead = ahead
    }

    /// Equal tokens.
    public static func == (lhs: PullContinuation, rhs: PullContinuation) -> Bool { lhs.token == rhs.token }

    /// Hashes the token.
    public func hash(into hasher: inout Hasher) { hasher.combine(token) }
}
