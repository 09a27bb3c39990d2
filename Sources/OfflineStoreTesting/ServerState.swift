import OfflineStore

/// Everything the in-memory server holds, kept in one `Mutex`.
struct ServerState: Sendable {
    /// Collections by name.
    var collections: [String: StoredCollection] = [:]
    /// Faults still to be played.
    var faults = FaultQueue()
    /// Every call received, oldest first.
    var log: [InMemoryBackend.Request] = []
    /// Operations that reached record handling.
    var writeCount = 0
    /// Called before a push is applied.
    var onPush: (@Sendable ([PushOperation]) async -> Void)?
}
