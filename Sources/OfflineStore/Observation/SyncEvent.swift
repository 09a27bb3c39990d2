/// Something a `flush`, `refresh` or `sync` did, in the order it happened
/// (RhoConnect `setNotification`). See ``ObjectStore/syncEvents()``.
public enum SyncEvent: Sendable, Hashable {
    /// A run began.
    case started(SyncOperation)
    /// Work on one collection advanced (one event per pushed batch or pulled page).
    case progress(SyncProgress)
    /// A conflict was met (whatever the policy then did with it).
    case conflict(Conflict)
    /// The server rejected an entry; it is kept as failed (or handled by the error handler).
    case failedEntry(QueueEntry)
    /// The server refused a collection (403): the run goes on with the others. Local
    /// copies stay; its refused edits stay queued or become forbidden failed entries.
    case refused(RefusedCollection)
    /// The server stopped letting the user read a collection the store had read (403 or 404
    /// on its records), and the store followed the collection's ``ReadAccessLossPolicy``
    /// (kept its local copies, or purged the synced ones). Sent after the matching
    /// ``refused(_:)``, once per loss: later syncs that find it still missing send only
    /// ``refused(_:)``, and a loss after a pull of the collection succeeded again is told again.
    case readAccessLost(ReadAccessLoss)
    /// A record turned out to be a late delivery of this store's own create, and the store
    /// undid it (see ``SyncReport/lateDeliveriesUndone``).
    case lateDeliveryUndone(LateDelivery)
    /// A run completed; its report.
    case finished(SyncOperation, SyncReport)
    /// A run stopped early (an ``OfflineStoreError`` with a ``OfflineStoreError/report``) or could not run.
    case error(SyncOperation, OfflineStoreError)
}

/// A late delivery of this store's own create: a request whose answer never came that
/// reached the server after the store had moved on (resent it, deleted the object). The
/// store deletes such a record again, or resends its newer edit over it.
public struct LateDelivery: Sendable, Hashable {
    /// The collection.
    public var collection: String
    /// The id of the record the late create made.
    public var id: String
    /// The record as the server holds it (what this store sent).
    public var record: JSONValue
    /// Its server version.
    public var version: String

    /// Creates a value.
    public init(collection: String, id: String, record: JSONValue, version: String) {
        self.collection = collection
        self.id = id
        self.record = record
        self.version = version
    }
}

/// Which run an event belongs to.
public enum SyncOperation: String, Sendable, Hashable, Codable {
    /// ``ObjectStore/flush()``.
    case flush
    /// ``ObjectStore/refresh(collections:full:)``.
    case refresh
    /// ``ObjectStore/sync()``.
    case sync
}

/// How far a run got in one collection.
public struct SyncProgress: Sendable, Hashable {
    /// Pushing the queue or pulling changes.
    public enum Direction: String, Sendable, Hashable, Codable {
        /// Queue entries sent to the server.
        case push
        /// Server changes read.
        case pull
    }

    /// The collection worked on.
    public var collection: String
    /// Push or pull.
    public var direction: Direction
    /// How many items the collection has in this run, when known (push: queue entries
    /// waiting at the start; pull: the server's announced total, e.g. Kinto `Total-Records`).
    public var total: Int?
    /// Items of this collection processed so far in this run (entries answered, changes read).
    public var processed: Int
    /// Items processed so far in this run, all collections and both directions.
    public var cumulative: Int

    /// Creates a progress value.
    public init(collection: String, direction: Direction, total: Int?, processed: Int, cumulative: Int) {
        self.collection = collection
        self.direction = direction
        self.total = total
        self.processed = processed
        self.cumulative = cumulative
    }
}

/// One object created, updated or deleted, and where the change came from.
/// See ``ObjectStore/changes(in:)``.
public struct ObjectChange: Sendable, Hashable {
    /// What happened to the object as the app sees it.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The object appeared.
        case created
        /// The object's value changed.
        case updated
        /// The object disappeared (a local delete, a server tombstone, a discard).
        case deleted
    }

    /// The collection.
    public var collection: String
    /// The object id.
    public var id: String
    /// Created, updated or deleted.
    public var kind: Kind
    /// A local edit or the server.
    public var origin: ChangeOrigin
    /// Why the change happened, when the kind alone does not say: ``Reason/leftScope`` for an
    /// object removed because its server record no longer matches the collection's sync scope,
    /// ``Reason/swept`` for one whose record a full pull no longer listed.
    public var reason: Reason?

    /// Why a change happened.
    public enum Reason: String, Sendable, Hashable, Codable {
        /// The server record stopped matching the collection's ``CollectionDescriptor/syncScope``
        /// (changed on the server, or the scope changed): the local copy was removed, the
        /// record is still on the server.
        case leftScope
        /// A complete pull from the beginning no longer listed the record: it was deleted on a
        /// server without tombstones (`RESTResource.Deletions.sweep`), and the local copy,
        /// which had nothing pending, was removed.
        case swept
        /// The server stopped letting the user read the collection and its policy is
        /// ``ReadAccessLossPolicy/purge``: the synced copy, which had nothing pending, was removed.
        case readAccessLost
    }

    /// Creates a change.
    public init(collection: String, id: String, kind: Kind, origin: ChangeOrigin, reason: Reason? = nil) {
        self.collection = collection
        self.id = id
        self.kind = kind
        self.origin = origin
        self.reason = reason
    }
}
