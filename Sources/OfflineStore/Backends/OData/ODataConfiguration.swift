import Foundation

extension ODataBackend {
    /// Settings of an ``ODataBackend``: the service root, the headers every request carries,
    /// optional settings per entity set, and limits.
    ///
    /// Nothing else is needed: keys, types, computed properties and references come from the
    /// service's `$metadata`, and whether the service tracks changes is found by asking it.
    public struct Configuration: Sendable {
        /// The service root, e.g. `http://127.0.0.1:8080/odata`; an entity set's URL is the
        /// root followed by its name. Each synced collection is named like its entity set.
        public var serviceRoot: URL
        /// Headers sent with every request, e.g. `Authorization`.
        public var headers: [String: String]
        /// Optional settings per entity set, keyed by entity-set name; a set without an entry
        /// has the defaults (``ODataEntitySetSettings/init(changedSince:changedSinceMargin:batchSize:sweepEvery:)``).
        public var entitySets: [String: ODataEntitySetSettings]
        /// How long to wait for an answer (default 30 s).
        public var timeout: Duration
        /// The most operations one push call takes (one JSON `$batch` where the service has
        /// it; default 50). An entity set's ``ODataEntitySetSettings/batchSize`` lowers it.
        public var maxBatchSize: Int

        /// Creates a configuration.
        public init(serviceRoot: URL, headers: [String: String] = [:], entitySets: [String: ODataEntitySetSettings] = [:],
                    timeout: Duration = .seconds(30), maxBatchSize: Int = 50) {
            self.serviceRoot = serviceRoot
            self.headers = headers
            self.entitySets = entitySets
            self.timeout = timeout
            self.maxBatchSize = max(1, maxBatchSize)
        }
    }
}
