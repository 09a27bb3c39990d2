import Foundation

/// The ``Backend`` for an OData v4 service: each entity set a collection.
///
/// Keys, types, computed properties and references come from the service's `$metadata`.
///
/// ```swift
/// let backend = ODataBackend(configuration: .init(
///     serviceRoot: URL(string: "http://127.0.0.1:8080/odata")!,
///     headers: ["Authorization": "Basic …"]))
/// ```
public final class ODataBackend: Backend, Sendable {
    /// The settings this backend was created with.
    public let configuration: Configuration
    let transport: any HTTPTransport

    /// Creates a backend; nothing is sent until the first call.
    public init(configuration: Configuration, transport: any HTTPTransport = URLSessionTransport(followingRedirects: false)) {
        self.configuration = configuration
        self.transport = transport
    }

    // CONTRACT STUBS: the odata-backend branch replaces everything below.

    /// Not yet built.
    public func capabilities() async throws -> BackendCapabilities { BackendCapabilities(maxBatchSize: configuration.maxBatchSize) }
    /// Not yet built.
    public func prepare(collection: String) async throws { throw OfflineStoreError(.configuration, "ODataBackend is not built yet") }
    /// Not yet built.
    public func push(_ operations: [PushOperation], collection: String) async throws -> [PushOutcome] {
        throw OfflineStoreError(.configuration, "ODataBackend is not built yet")
    }
    /// Not yet built.
    public func pull(_ request: PullRequest, delivering deliver: ([RemoteChange]) async throws -> Void) async throws -> PullPage {
        throw OfflineStoreError(.configuration, "ODataBackend is not built yet")
    }
    /// Not yet built.
    public func ping() async throws { throw OfflineStoreError(.configuration, "ODataBackend is not built yet") }
}
