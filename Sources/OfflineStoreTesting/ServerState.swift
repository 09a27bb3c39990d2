import OfflineStore

/// Everything the in-memory server holds, kept in one `Locked`.
struct ServerState: Sendable {
    /// Collections by name.
    var collections: [String: StoredCollection] = [:]
    /// The highest timestamp given before the last ``InMemoryBackend/wipe()``; new collections start
    /// above it, so versions never repeat even under a fixed clock.
    var timestampFloor: Int64 = 0
    /// Faults still to be played.
    var faults = FaultQueue()
    /// Every call received, oldest first.
    var log: [InMemoryBackend.Request] = []
    /// Operations that reached record handling.
    var writeCount = 0
    /// Called before a push is applied.
    var onPush: (@Sendable ([PushOperation]) async -> Void)?

    /// The collection with this name, or a new empty one (not stored).
    func collection(_ name: String) -> StoredCollection {
        collections[name] ?? StoredCollection(floor: timestampFloor)
    }

    /// Runs `body` on the collection with this name, creating it if needed.
    mutating func modify<T>(_ name: String, _ body: (inout StoredCollection) -> T) -> T {
        body(&collections[name, default: StoredCollection(floor: timestampFloor)])
    }

    /// Erases every collection, keeping versions increasing.
    mutating func wipe() {
        timestampFloor = collections.values.reduce(timestampFloor) { max($0, $1.timestamp) }
        collections.removeAll()
    }
}
