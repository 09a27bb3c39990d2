/// Optional settings of one entity set of an ``ODataBackend`` (the `--odata FILE` of
/// `offline-store init`). Every member has a default that works on any OData v4 service.
public struct ODataEntitySetSettings: Sendable, Hashable, Codable {
    /// A property the service sets at every write (a modification timestamp such as
    /// `ModifiedAt`), used on a service without change tracking to pull only what changed:
    /// `$filter=P ge (cursor − margin)`, ordered by the property then the key. Deletions are
    /// still found by full pulls (``sweepEvery``). It must be declared in `$metadata` as
    /// `Edm.DateTimeOffset`, an integer or `Edm.String` (else preparing the collection is a
    /// `configuration` error). Not used where the service tracks changes. Nil (the default):
    /// every refresh of a service without change tracking lists the whole set.
    public var changedSince: String?
    /// How far before the stored cursor an incremental pull by an `Edm.DateTimeOffset`
    /// ``changedSince`` starts, for writes committed late with an earlier value (default 2 s;
    /// an integer or string property starts at the cursor). Records read twice change nothing.
    public var changedSinceMargin: Duration
    /// The most operations one request to the set carries (lower than
    /// ``ODataBackend/Configuration/maxBatchSize``); nil keeps the backend's.
    public var batchSize: Int?
    /// With ``changedSince``: every how many refreshes of the set one is a full pull that
    /// finds deletions by absence (default 10). Ignored without ``changedSince`` (every
    /// refresh is a full pull there) and where the service tracks changes (it reports deletions).
    public var sweepEvery: Int

    /// Creates settings; the defaults need nothing of the service.
    public init(changedSince: String? = nil, changedSinceMargin: Duration = .seconds(2), batchSize: Int? = nil,
                sweepEvery: Int = 10) {
        self.changedSince = changedSince
        self.changedSinceMargin = changedSinceMargin
        self.batchSize = batchSize.map { max(1, $0) }
        self.sweepEvery = max(1, sweepEvery)
    }
}
