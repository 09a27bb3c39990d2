/// What an edit does when the server cannot be reached (Oracle MCS update policies).
public enum UpdatePolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Offline, the edit is written locally and queued; the call succeeds once it is durable.
    case queueIfOffline
    /// Offline, the call fails with ``OfflineStoreError/Code/offline`` and nothing changes.
    case updateIfOnline
}

/// When edits reach the network, and whether an edit call waits for the server
/// (Docs/Policies.md, "Write modes").
public enum WriteMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Each edit returns once it is committed locally (object and queue entry); the store's
    /// background sender then sends the queue. What the server said reaches the app through
    /// the object's sync status, sync events and later reports, never as an error of the
    /// edit. Under ``UpdatePolicy/updateIfOnline`` an edit waits for the server, as in
    /// ``awaitingServer``.
    case immediate
    /// Each edit commits locally, then the call pushes the queue and waits for the server:
    /// it returns the object as the server stored it, or throws what stopped it
    /// (`conflict`, `failedEntry`, `timeout`, …); the edit stays queued unless the update
    /// policy is ``UpdatePolicy/updateIfOnline``, which undoes it.
    case awaitingServer
    /// Every edit is local and queued; only `flush` and `sync` touch the network (kinto.js style).
    case deferred
}
