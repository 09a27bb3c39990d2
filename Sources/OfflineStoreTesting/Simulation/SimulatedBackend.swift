import OfflineStore

/// The ``Backend`` one simulated client process talks to: pushes and pulls cross the
/// simulated network; the rest answers at once (the collection exists from the start).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class SimulatedBackend: Backend {
    let network: SimulatedNetwork
    let server: InMemoryBackend
    let incarnation: Int
    let client: Int
    let overlapsPageBoundaries: Bool

    init(network: SimulatedNetwork, server: InMemoryBackend, incarnation: Int, client: Int, overlapsPageBoundaries: Bool) {
        self.network = network
        self.server = server
        self.incarnation = incarnation
        self.client = client
        self.overlapsPageBoundaries = overlapsPageBoundaries
    }

    func validate(id: String, in collection: String) throws { try server.validate(id: id) }

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

    func pull(_ request: PullRequest, delivering deliver: ([RemoteChange]) async throws -> Void) async throws -> PullPage {
        switch try await network.call(.pull(collection: request.collection, since: request.cursor, continuing: request.continuation,
                                            listing: FeedListing(request)),
                                      incarnation: incarnation, client: client) {
        case .page(let page): return overlapsPageBoundaries ? Self.startingAtItsBoundary(page) : page
        case .failed(let error): throw error
        case .pushed: throw OfflineStoreError(.badResponse, "outcomes answered a pull")
        }
    }

    func ping() async throws {}

    /// The page with its continuation made to start at the page's last version instead of after
    /// it, as `KintoBackend` asks Kinto's next page (`KintoPageBoundary`): a change sharing that
    /// version is listed again, not skipped; a page of nothing but that version keeps the
    /// server's continuation (asked again, it would come back whole).
    static func startingAtItsBoundary(_ page: PullPage) -> PullPage {
        guard let next = page.next, var token = PullToken(next),
              let lowest = page.changes.compactMap({ Int64($0.version) }).min(), lowest < token.after else { return page }
        token.after -= 1
        var overlapping = page
        overlapping.next = token.continuation
        return overlapping
    }
}
