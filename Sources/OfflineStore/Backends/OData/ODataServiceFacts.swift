/// What an ``ODataBackend`` learned about its service, kept for the backend's life.
struct ODataServiceFacts: Sendable {
    /// The service's `$metadata`, once read.
    var metadata: ODataMetadata?
    /// Whether the service takes JSON `$batch` requests: nil until a push finds out.
    var batch: Bool?
    /// Per entity set: whether a full read with `Prefer: odata.track-changes` gave a delta
    /// link. Nil until the set's first full pull.
    var tracksChanges: [String: Bool] = [:]
    /// The entity sets whose changed-since `$filter` the service refused (400): pulled in full
    /// from then on, as without the setting.
    var changedSinceRefused: Set<String> = []
}
