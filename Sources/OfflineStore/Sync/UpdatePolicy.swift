/// What an edit does when the server cannot be reached (Oracle MCS update policies).
public enum UpdatePolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Offline, the edit is written locally and queued; the call succeeds once it is durable.
    case queueIfOffline
    /// Offline, the call fails with ``OfflineStoreError/Code/offline`` and nothing changes.
    case updateIfOnline
}

/// When edits reach the network.
public enum WriteMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Online, each edit is sent to the server right away (the seeds' semantics).
    case immediate
    /// Every edit is local and queued; only `flush` and `sync` touch the network (kinto.js style).
    case deferred
}
