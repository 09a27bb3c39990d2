import Foundation

extension RESTBackend {
    /// Settings of a ``RESTBackend``: the server, one ``RESTResource`` per synced collection,
    /// headers and timeouts.
    public struct Configuration: Sendable {
        /// The API root, e.g. `http://127.0.0.1:3000`; resource paths are appended to it.
        public var baseURL: URL
        /// The resource of each collection, keyed by collection name.
        public var resources: [String: RESTResource]
        /// Headers sent with every request, e.g. `Authorization`.
        public var headers: [String: String]
        /// The header that carries a create's idempotency key; nil sends none.
        public var idempotencyHeader: String?
        /// How long to wait for an answer (default 30 s).
        public var timeout: Duration
        /// The most operations one push call takes (sent one request each; default 25).
        public var maxBatchSize: Int

        /// Creates a configuration.
        public init(baseURL: URL, resources: [String: RESTResource], headers: [String: String] = [:],
                    idempotencyHeader: String? = "Idempotency-Key", timeout: Duration = .seconds(30),
                    maxBatchSize: Int = 25) {
            self.baseURL = baseURL
            self.resources = resources
            self.headers = headers
            self.idempotencyHeader = idempotencyHeader
            self.timeout = timeout
            self.maxBatchSize = maxBatchSize
        }
    }
}
