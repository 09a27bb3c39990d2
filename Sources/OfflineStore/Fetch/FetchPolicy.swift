/// Where a read that may go to the server takes its answer from (OMC fetch policies; Docs/Policies.md).
///
/// The policy in force is the call's `policy:` if given, else
/// ``ObjectStore/Configuration/fetchPolicies`` for the collection, else
/// ``ObjectStore/Configuration/fetchPolicy`` (default ``fromCache``).
public enum FetchPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Only the local store; never touches the network.
    case fromCache
    /// Always asks the server; fails with `offline` (or the server's error) when it cannot answer.
    case fromService
    /// Asks the server when it can be reached; falls back to the local store when offline.
    case fromServiceIfOnline
    /// Answers from the local store when it has the data; asks the server on a cache miss.
    case fromServiceOnCacheMiss
    /// Answers from the local store now and refreshes from the server in the background,
    /// reporting through the call's `onRefresh` callback whether fresher data arrived.
    case fromCacheScheduleRefresh
}

/// How a background refresh scheduled by ``FetchPolicy/fromCacheScheduleRefresh`` ended.
public enum FetchRefreshOutcome: Sendable, Hashable {
    /// Fresher server data was applied to these objects; read them again.
    case updated(collection: String, ids: [String])
    /// The server had nothing newer than the local store.
    case unchanged(collection: String)
    /// The refresh could not run (offline, server error, store full); the local store is unchanged by it.
    case failed(OfflineStoreError)
}
