import OfflineStore

/// The ``Backend`` one simulated client process talks to: pushes and pulls cross the
/// simulated network; the rest answers at once (the collection exists from the start).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class SimulatedBackend: Backend {
    let network: SimulatedNetwork
    let server: InMemoryBackend
    let incarnation: Int
    let client: Int

    init(network: SimulatedNetwork, server: InMemoryBackend, incarnation: Int, client: Int) {
        self.network = network
        self.server = server
        self.incarnation = incarnation
        self.client = client
    }

    func validate(id: String) throws { try server.validate(id: id) }

    func capabilities() async throws -> BackendCapabilities {
        BackendCapabilities(maxBatchSize: server.configuration.maxBatchSize)
    }

    func prepare(collection: String) async throws {}

    func push(_ operations: [PushOperation], collection: String) async throws -> [PushOutcome] {
        switch try await network.call(.push(collection: collection, operations: operations),
                                      incarnation: incarnation, client: client) {
        case .pushed(let outcomes): return outcomes
        case .failed(let error): throw error
        case .page: throw OfflineStoreError(.badResponse, "a page answered a push")
        }
    }

    func pull(collection: String, since cursor: String?, continuing: PullContinuation?) async throws -> PullPage {
        try await pull(collection: collection, since: cursor, continuing: continuing, listing: .everything)
    }

    func pull(collection: String, since cursor: String?, continuing: PullContinuation?,
              scope: ServerQuery) async throws -> PullPage {
        try await pull(collection: collection, since: cursor, continuing: continuing, listing: .scope(scope))
    }

    func pull(collection: String, since cursor: String?, continuing: PullContinuation?,
              fields: [String]) async throws -> PullPage {
        try await pull(collection: collection, since: cursor, continuing: continuing, listing: .fields(fields))
    }

    private func pull(collection: String, since cursor: String?, continuing: PullContinuation?,
                      listing: FeedListing) async throws -> PullPage {
        switch try await network.call(.pull(collection: collection, since: cursor, continuing: continuing, listing: listing),
                                      incarnation: incarnation, client: client) {
        case .page(let page): return page
        case .failed(let error): throw error
        case .pushed: throw OfflineStoreError(.badResponse, "outcomes answered a pull")
        }
    }

    func ping() async throws {}
}
