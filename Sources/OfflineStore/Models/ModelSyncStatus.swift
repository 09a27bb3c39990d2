/// Where a model's object stands relative to the server, for a badge in a list.
public enum ModelSyncStatus: String, Sendable, Hashable, CaseIterable {
    /// On the server as the app sees it.
    case synced
    /// A local create, update or delete waits to be sent or confirmed.
    case pending
    /// The server changed the object too; the app must resolve the conflict (``ModelCollection/conflicts()``).
    case conflicted
    /// The server rejected the local edit; see ``ModelCollection/failedEntries()``.
    case failed

    /// The status of an object in a sync state.
    public init(_ state: SyncState) {
        switch state {
        case .synced: self = .synced
        case .created, .updated, .deleted: self = .pending
        case .conflicted: self = .conflicted
        case .failed: self = .failed
        }
    }
}
