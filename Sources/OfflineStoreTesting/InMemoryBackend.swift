import Foundation
import OfflineStore

/// A Kinto-like server in memory, for fast tests of the sync engine and of apps.
///
/// Answers like `KintoBackend` talking to a real Kinto: versions are per-collection
/// millisecond timestamps that strictly increase, creates must not overwrite a live record,
/// updates and deletes carry their base version, deletions leave tombstones that pulls return.
/// Tests can act as another client (``put(collection:id:record:)``), inject faults
/// (``inject(_:times:)``) and read the request log (``requestLog``).
///
/// ```swift
/// let date = ManualDate()
/// let backend = InMemoryBackend(pageSize: 2, now: date.now)
/// backend.put(collection: "todos", id: "a", record: ["title": "from another client"])
/// backend.inject(.status(503, retryAfter: .seconds(1)).only(.push))
/// ```
public final class InMemoryBackend: Backend, Sendable {
    /// How the in-memory server behaves.
    public struct Configuration: Sendable {
        /// The most operations one push may carry (Kinto's `batch_max_requests`); default 25.
        public var maxBatchSize: Int
        /// The most changes one pull page holds; default 100.
        public var pageSize: Int
        /// The wall clock versions are derived from (in ms, bumped to stay increasing); default `Date()`.
        public var now: @Sendable () -> Date
        /// The clock that `delay` faults wait on; default `ContinuousClock()`.
        public var clock: any Clock<Duration>
        /// Whether push and pull need ``InMemoryBackend/prepare(collection:)`` first, as on Kinto (404); default false.
        public var requiresPreparedCollections: Bool
        /// Whether pull pages announce ``PullPage/total``; default false, as Kinto does not.
        public var announcesTotal: Bool
        /// How far below a pull's cursor its first page starts, as `KintoBackend` asks
        /// `_since = cursor − lookBack`; default zero. Writes with a writer's past timestamp
        /// (``StoredCollection``) need it, as on Kinto.
        public var lookBack: Duration

        /// Creates a configuration; `maxBatchSize` and `pageSize` must be at least 1.
        public init(
            maxBatchSize: Int = 25, pageSize: Int = 100, now: @escaping @Sendable () -> Date = { Date() },
            clock: any Clock<Duration> = ContinuousClock(), requiresPreparedCollections: Bool = false,
            announcesTotal: Bool = false, lookBack: Duration = .zero
        ) {
            self.lookBack = lookBack
            precondition(maxBatchSize >= 1 && pageSize >= 1, "batch and page sizes must be at least 1")
            self.maxBatchSize = maxBatchSize
            self.pageSize = pageSize
            self.now = now
            self.clock = clock
            self.requiresPreparedCollections = requiresPreparedCollections
            self.announcesTotal = announcesTotal
        }
    }

    /// How this server behaves.
    public let configuration: Configuration
    let state = Locked(ServerState())

    /// Creates an empty server.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Creates an empty server with a batch limit, a page size, a wall clock and a clock for delays.
    public convenience init(
        maxBatchSize: Int = 25, pageSize: Int = 100, now: @escaping @Sendable () -> Date = { Date() },
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.init(configuration: Configuration(maxBatchSize: maxBatchSize, pageSize: pageSize, now: now, clock: clock))
    }

    /// Called with the operations of each push that reaches the server, before they are applied;
    /// lets a test edit locally while the push is in flight.
    public var onPush: (@Sendable ([PushOperation]) async -> Void)? {
        get { state.withLock { $0.onPush } }
        set { state.withLock { $0.onPush = newValue } }
    }

    /// Checks `id` against Kinto's rule `^[a-zA-Z0-9][a-zA-Z0-9_-]*$` (the same in every collection).
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidID`` naming the rule.
    public func validate(id: String, in collection: String) throws {
        try validate(id: id)
    }

    /// Checks `id` against Kinto's rule `^[a-zA-Z0-9][a-zA-Z0-9_-]*$`.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidID`` naming the rule.
    public func validate(id: String) throws {
        guard KintoConventions.accepts(id: id) else {
            throw OfflineStoreError(
                .invalidID, "the id \"\(id.prefix(100))\" does not match Kinto's rule \(KintoConventions.idPattern)")
        }
    }

    /// The configured batch limit.
    public func capabilities() async throws -> BackendCapabilities {
        BackendCapabilities(maxBatchSize: configuration.maxBatchSize)
    }

    /// Creates the collection if it does not exist.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidID`` for a name Kinto refuses.
    public func prepare(collection: String) async throws {
        state.withLock { $0.log.append(.prepare(collection: collection)) }
        try validate(id: collection)
        state.withLock { s in
            s.modify(collection) { _ in }
        }
    }

    /// Succeeds unless an injected fault says otherwise.
    ///
    /// - Throws: the error of an injected fault (`offline`, `timeout`, `unauthorized`, `server`).
    public func ping() async throws {
        let fault = state.withLock { s in
            s.log.append(.ping)
            return s.faults.takeCallFault(for: .ping)
        }
        _ = try await play(fault, on: .ping)
    }

    /// The current wall-clock time in milliseconds since 1970.
    func nowMilliseconds() -> Int64 {
        Int64((configuration.now().timeIntervalSince1970 * 1000).rounded(.down))
    }
}
