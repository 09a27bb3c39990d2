/// What a sync does with a collection's local data when the server stops letting the user
/// read it (403, or 404, on its records after it was read before). See
/// ``CollectionDescriptor/readAccessLoss`` and Docs/Auth.md, "Sharing and lost access".
public enum ReadAccessLossPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Local copies stay, readable, with their pending edits; the collection stops syncing
    /// (each sync asks again and reports it in ``SyncReport/refused``) until read access returns.
    case keep
    /// The synced copies are removed and the pull cursor cleared (the next readable pull
    /// starts from the beginning); objects with pending edits stay as the app sees them,
    /// their pending edits become forbidden failed entries (``QueueEntry/Failure/forbidden``),
    /// which ``ObjectStore/retry(_:id:)`` sends once access returns. Conflicts stay conflicts.
    case purge
}

/// A collection whose read access the server withdrew, and what the store did
/// (``SyncEvent/readAccessLost(_:)``).
public struct ReadAccessLoss: Sendable, Hashable, Codable {
    /// The collection.
    public var collection: String
    /// The policy the store followed.
    public var policy: ReadAccessLossPolicy
    /// The HTTP status of the refusal (403 or 404), when the server answered one.
    public var status: Int?
    /// Why, in words (the server's answer summarised).
    public var message: String
    /// Synced copies removed (0 with ``ReadAccessLossPolicy/keep``).
    public var removedObjects: Int
    /// Pending edits that became forbidden failed entries (0 with ``ReadAccessLossPolicy/keep``).
    public var failedEntries: Int

    /// Creates a value.
    public init(collection: String, policy: ReadAccessLossPolicy, status: Int?, message: String,
                removedObjects: Int, failedEntries: Int) {
        self.collection = collection
        self.policy = policy
        self.status = status
        self.message = message
        self.removedObjects = removedObjects
        self.failedEntries = failedEntries
    }
}
