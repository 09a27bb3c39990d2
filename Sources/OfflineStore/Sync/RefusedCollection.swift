/// A collection the server refused during a run (HTTP 403): the run went on with the
/// others; see ``SyncReport/refused`` and ``SyncEvent/refused(_:)``.
public struct RefusedCollection: Sendable, Hashable, Codable {
    /// The collection.
    public var collection: String
    /// Whether sending its queue or pulling its changes was refused.
    public var direction: SyncProgress.Direction
    /// Why, in words (the server's answer summarised).
    public var message: String
    /// The HTTP status, when the server answered one.
    public var status: Int?

    /// Creates a refusal.
    public init(collection: String, direction: SyncProgress.Direction, message: String, status: Int?) {
        self.collection = collection
        self.direction = direction
        self.message = message
        self.status = status
    }
}
