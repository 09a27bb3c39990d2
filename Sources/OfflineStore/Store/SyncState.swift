/// Where an object stands relative to the server.
public enum SyncState: String, Sendable, Hashable, Codable, CaseIterable {
    /// No local edits: the object equals its persistent (server) copy.
    case synced
    /// Created locally, not yet on the server.
    case created
    /// Edited locally; the edit is not yet on the server.
    case updated
    /// Deleted locally (a tombstone); the delete is not yet on the server.
    case deleted
    /// The server holds a version the local edit was not based on; the app must resolve.
    case conflicted
    /// The server rejected the object's edit; the failed entry waits for the app's action.
    case failed
}
