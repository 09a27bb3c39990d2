import Foundation

/// What a `flush`, `refresh` or `sync` did, and what is left.
public struct SyncReport: Sendable, Hashable, Codable {
    /// Queue entries the server applied (including own writes recognised after a lost answer).
    public var pushed = 0
    /// Server changes applied locally (changes already known are not counted).
    public var pulled = 0
    /// Conflicts met during this run (settled by policy or preserved).
    public var conflictsDetected = 0
    /// Conflicts settled automatically by the collection's conflict policy.
    public var conflictsResolved = 0
    /// Objects left in the ``SyncState/conflicted`` state, store-wide, at the end.
    public var conflicts = 0
    /// Failed queue entries waiting for the app, store-wide, at the end.
    public var failed = 0
    /// Queue entries still pending, store-wide, at the end.
    public var pending = 0
    /// Pending entries the last flush held back because they reference an object whose
    /// create the server has not applied (failed or not sent yet); see `AssociationHolds`.
    public var heldBack = 0
    /// Blobs uploaded during this run.
    public var blobsUploaded = 0
    /// Blobs downloaded during this run (eager blob fields).
    public var blobsDownloaded = 0
    /// Blob uploads still pending or refused, store-wide, at the end of a flush.
    public var blobsWaiting = 0
    /// Objects removed locally because their server record left the collection's sync scope.
    public var leftScope = 0
    /// Objects removed locally because a complete pull from the beginning no longer listed
    /// their record: deleted on a server without tombstones (``BackendTraits/sweepsDeletions``).
    public var swept = 0
    /// Collections the server refused during this run (403 on their preparation, push or
    /// pull), each once per direction; the other collections were synced. Edits it refused
    /// one by one are failed entries (``QueueEntry/Failure/forbidden``), not listed here.
    public var refused: [RefusedCollection] = []
    /// Late deliveries of this store's own creates recognised in this run: a create whose
    /// answer was lost reached the server after the store had moved on (resent it, deleted
    /// the object), and the store undid it (deleted it again, or resent its newer edit over
    /// it); see Docs/Sync.md, "Late deliveries".
    public var lateDeliveriesUndone = 0

    /// Creates an empty report.
    public init() {}

    /// Counts a conflict's settlement (identical copies are no conflict).
    mutating func count(_ settlement: SyncEngine.Settlement) {
        switch settlement {
        case .identical: break
        case .resolved: conflictsDetected += 1; conflictsResolved += 1
        case .preserved: conflictsDetected += 1
        }
    }

    /// Adds another report's counts of work done; the "left" counts are taken from `other`.
    mutating func absorb(_ other: SyncReport) {
        pushed += other.pushed
        pulled += other.pulled
        conflictsDetected += other.conflictsDetected
        conflictsResolved += other.conflictsResolved
        conflicts = other.conflicts
        failed = other.failed
        pending = other.pending
        heldBack = other.heldBack
        blobsUploaded += other.blobsUploaded
        blobsDownloaded += other.blobsDownloaded
        blobsWaiting = other.blobsWaiting
        leftScope += other.leftScope
        swept += other.swept
        lateDeliveriesUndone += other.lateDeliveriesUndone
        refused += other.refused
    }

    /// Names a refused collection (once per direction).
    mutating func refuse(_ collection: String, _ direction: SyncProgress.Direction, _ error: OfflineStoreError) {
        guard !refused.contains(where: { $0.collection == collection && $0.direction == direction }) else { return }
        refused.append(RefusedCollection(collection: collection, direction: direction, message: error.message, status: error.status))
    }
}
