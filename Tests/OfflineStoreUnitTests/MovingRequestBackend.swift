import Foundation
import OfflineStore
import OfflineStoreTesting

/// Delegates to an in-memory server, except that while it is set moving, the answer of a
/// push (applied on the server first) or of a pull keeps arriving: a piece every second on
/// `clock`, never ending, until the request's task is cancelled (then it throws
/// `CancellationError`, as the store's transport does for a cancelled request). That is a
/// slow upload or page as Apple's URLSession sees it: its request timeout bounds only the
/// silence between packets, so it never fires. With `finishingAfter`, the answer ends after
/// that many pieces and is returned.
final class MovingRequestBackend: Backend {
    /// Which requests keep moving.
    enum Request: Sendable, Hashable { case push, pull }

    private struct State {
        var moving: Set<Request> = []
        var finishingAfter: Int?
        var pieces = 0
    }

    let base: InMemoryBackend
    let clock: ManualClock
    private let state = Locked(State())

    init(base: InMemoryBackend, clock: ManualClock) {
        self.base = base
        self.clock = clock
    }

    /// Makes the answers of `requests` keep moving; `finishingAfter` pieces, they end (nil: never).
    func move(_ requests: Set<Request>, finishingAfter: Int? = nil) {
        state.withLock { $0 = State(moving: requests, finishingAfter: finishingAfter, pieces: $0.pieces) }
    }

    /// How many pieces of answers arrived so far.
    var pieces: Int { state.withLock { $0.pieces } }

    private func keepMoving(_ request: Request) async throws {
        let (moving, limit) = state.withLock { s in (s.moving.contains(request), s.finishingAfter) }
        guard moving else { return }
        var arrived = 0
        while limit.map({ arrived < $0 }) ?? true {
            try await clock.sleep(for: .seconds(1))
            arrived += 1
            state.withLock { $0.pieces += 1 }
        }
    }

    func push(_ operations: [PushOperation], collection: String) async throws -> [PushOutcome] {
        let outcomes = try await base.push(operations, collection: collection)
        try await keepMoving(.push)
        return outcomes
    }

    func pull(_ request: PullRequest, delivering deliver: ([RemoteChange]) async throws -> Void) async throws -> PullPage {
        let page = try await base.pull(request)
        try await keepMoving(.pull)
        return page
    }

    func validate(id: String, in collection: String) throws { try base.validate(id: id, in: collection) }
    func capabilities() async throws -> BackendCapabilities { try await base.capabilities() }
    func prepare(collection: String) async throws { try await base.prepare(collection: collection) }
    func ping() async throws { try await base.ping() }
    func fetch(collection: String, id: String) async throws -> RemoteChange? {
        try await base.fetch(collection: collection, id: id)
    }
    func search(collection: String, query: ServerQuery, continuing: PullContinuation?) async throws -> PullPage {
        try await base.search(collection: collection, query: query, continuing: continuing)
    }
}
