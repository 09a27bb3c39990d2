import Foundation

/// The ``Backend`` for an OData v4 service: each entity set a collection.
///
/// Keys, types, computed properties and references come from the service's `$metadata`,
/// read once and kept; whether the service tracks changes (delta links) and takes JSON
/// `$batch` requests is found by asking it. Docs/Backends.md, "OData", says what the store
/// asks of a service and what it does without change tracking.
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
    /// What the service said about itself: `$metadata`, `$batch`, change tracking.
    let service = Locked(ODataServiceFacts())

    /// Creates a backend; nothing is sent until the first call.
    public init(configuration: Configuration, transport: any HTTPTransport = URLSessionTransport(followingRedirects: false)) {
        self.configuration = configuration
        self.transport = transport
    }

    /// Checks an id against the entity set's key, once `$metadata` is read: a Guid key takes
    /// a lower-case Guid, an integer key a decimal integer (ids of sets whose keys the server
    /// assigns are temporary and never sent, so any id passes there), a String key any id.
    /// Before `$metadata` is read every id passes; the server's answer refuses a bad one.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidID`` naming the key and its type.
    public func validate(id: String, in collection: String) throws {
        guard let mapping = cachedMapping(collection), !mapping.assignsKeys else { return }
        try mapping.key.validate(id)
    }

    /// The batch size of the configuration; reads `$metadata` first, so that the traits of
    /// every set are known before the engine sends anything.
    ///
    /// - Throws: the errors of reading `$metadata`: `offline`, `timeout`, `unauthorized`,
    ///   `server`, `badResponse`.
    public func capabilities() async throws -> BackendCapabilities {
        _ = try await metadata()
        return BackendCapabilities(maxBatchSize: configuration.maxBatchSize)
    }

    /// Reads `$metadata` (once) and checks that the entity set exists with a key the store
    /// can sync, and that its changed-since property (``ODataEntitySetSettings/changedSince``),
    /// if any, is declared with a type a pull can be ordered by; OData sets are never created
    /// by a client.
    ///
    /// - Throws: ``OfflineStoreError/Code/configuration`` naming the sets there are, why the
    ///   set's key cannot be synced, or the changed-since property and the set's properties;
    ///   the errors of reading `$metadata`.
    public func prepare(collection: String) async throws {
        _ = try changedSince(of: try await mapping(collection))
    }

    /// What `$metadata` says about the set: server-assigned keys (integer or computed keys;
    /// a resent create of one cannot be read by key, so the engine refreshes before resending
    /// it), the references of its navigation constraints, its computed properties. Deletions
    /// are found by absence in every full pull (a service without change tracking reports
    /// none). Before `$metadata` is read (it is read by ``capabilities()``, ``prepare(collection:)``
    /// and every pull or push), only `sweepsDeletions` is known.
    public func traits(of collection: String) -> BackendTraits {
        var traits = BackendTraits(sweepsDeletions: true)
        guard let mapping = cachedMapping(collection) else { return traits }
        traits.associations = mapping.references
        traits.serverManagedFields = mapping.serverManaged
        if mapping.assignsKeys {
            traits.assignsIDs = true
            traits.refreshesBeforeResendingCreates = true
        }
        return traits
    }

    /// Asks the service document: any answer but 401/403 or 5xx means reachable.
    ///
    /// - Throws: `offline`, `timeout`, `unauthorized`, `forbidden`, `server`.
    public func ping() async throws {
        let reply = try await send("GET", configuration.serviceRoot, what: "pinging the service")
        if reply.status == 401 || reply.status == 403 || reply.status >= 500 { throw reply.error("pinging the service") }
    }

    /// Reads one entity by key; nil when the service has none (404).
    ///
    /// - Throws: `configuration` (no such set), `badResponse`, and the transport's errors.
    public func fetch(collection: String, id: String) async throws -> RemoteChange? {
        let mapping = try await mapping(collection)
        guard let found = try await read(id, mapping: mapping, what: "reading \(collection)/\(id)") else { return nil }
        return RemoteChange(id: id, record: found.record, version: found.version)
    }
}

extension ODataBackend: CustomStringConvertible {
    /// The backend and its service root (header values are not shown).
    public var description: String { "ODataBackend(\(configuration.serviceRoot.absoluteString))" }
}
