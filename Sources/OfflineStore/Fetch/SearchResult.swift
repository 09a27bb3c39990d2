/// What a server search (or a `fromService` read of a whole collection) brought into the store.
public struct SearchResult: Sendable, Hashable {
    /// The collection searched.
    public var collection: String
    /// The ids of every matching server record, in the server's order.
    public var ids: [String] = []
    /// The ids whose stored copy changed (new or fresher server data).
    public var changed: [String] = []
    /// Incoming records that met a local edit based on another version.
    public var conflictsDetected = 0
    /// How many pages the server answered.
    public var pages = 0

    /// Creates an empty result.
    public init(collection: String) { self.collection = collection }
}

/// Progress of a search, reported after each page is applied.
public struct SearchProgress: Sendable, Hashable {
    /// The collection searched.
    public var collection: String
    /// Matching records applied so far.
    public var processed: Int
    /// The number of matches the server announced, if it did.
    public var total: Int?
}
