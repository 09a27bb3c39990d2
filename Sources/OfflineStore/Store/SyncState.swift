/// Where an object stands relative to the server.
public enum SyncState: String, Sendable, Hashable, Codable, CaseIterable {
    /// No local edits: the object equals its persistent (server) copy.
    case synced
    /// Created locally; the server does not have it.
    case created
    /// Edited locally; the server does not have the edit.
    case updated
    /// Deleted locally (a tombstone); the server does not have the delete.
    case deleted
    /// The server holds a version the local edit was not based on; the app must resolve.
    case conflicted
    /// The server rejected the object's edit; the failed entry waits for the app's action.
    case failed
}
