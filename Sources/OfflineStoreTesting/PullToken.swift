import OfflineStore

/// Where a paged pull of the in-memory server stands: the original `since`, the last version
/// returned, and the collection timestamp taken on the first page (the snapshot bound).
struct PullToken: Hashable, Sendable {
    /// The collection being pulled.
    var collection: String
    /// The exclusive lower bound of the whole pull (`Int64.min` for everything).
    var since: Int64
    /// The version of the last change returned so far.
    var after: Int64
    /// The highest version this pull returns.
    var bound: Int64

    private static let prefix = "inmemory-v1"

    /// The opaque continuation for this position.
    var continuation: PullContinuation {
        PullContinuation(token: "\(Self.prefix):\(since):\(after):\(bound):\(collection)")
    }

    /// Reads a continuation made by ``continuation``; nil if it is not one.
    init?(_ continuation: PullContinuation) {
        let parts = continuation.token.split(separator: ":", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == Self.prefix,
              let since = Int64(parts[1]), let after = Int64(parts[2]), let bound = Int64(parts[3])
        else { return nil }
        self.init(collection: String(parts[4]), since: since, after: after, bound: bound)
    }

    /// Creates a position.
    init(collection: String, since: Int64, after: Int64, bound: Int64) {
        self.collection = collection
        self.since = since
        self.after = after
        self.bound = bound
    }
}
