/// One object with all its copies: what the app sees and what the server has.
public struct StoredObject: Sendable, Hashable {
    /// The collection that holds the object.
    public let collection: String
    /// The object's id.
    public let id: String
    /// The app's unsynced edit; nil when there is none or when the edit is a delete.
    public let local: JSONValue?
    /// Whether the local edit is a delete (a tombstone kept until the server has it).
    public let isLocallyDeleted: Bool
    /// The last state known from the server; nil if the server never had the object.
    public let persistent: JSONValue?
    /// The persistent copy the local edit started from.
    public let base: JSONValue?
    /// The server version the local edit started from; sent as precondition.
    public let baseVersion: String?
    /// The server version of the persistent copy.
    public let serverVersion: String?
    /// Where the object stands relative to the server.
    public let state: SyncState

    /// Whether there is a local edit (including a delete) that the server has not confirmed.
    public var hasLocalEdit: Bool { local != nil || isLocallyDeleted }

    /// What a read returns: the local copy if there is one, else the persistent copy;
    /// nil for a local delete.
    public var value: JSONValue? {
        if isLocallyDeleted { return nil }
        return local ?? persistent
    }
}
