import Foundation
import OfflineStore

/// A local web page over one store: collections and counts, an object browser, the queue,
/// conflicts (resolved field by field), failed entries, and flush / refresh / sync.
///
/// ```swift
/// let inspector = try Inspector(store: store, configuration: .init(port: 0, allowWrites: true))
/// inspector.start()
/// print(inspector.url)   // http://127.0.0.1:PORT/
/// ```
///
/// It listens on 127.0.0.1 only and is read-only unless ``Configuration/allowWrites``.
/// Every action calls the store's public API; nothing the page sends becomes SQL or a path.
public final class Inspector: Sendable {
    /// How the inspector is served.
    public struct Configuration: Sendable {
        /// The port on 127.0.0.1; 0 picks a free one. Default 8484.
        public var port: Int
        /// Whether the page may change the store (resolve, retry/rollback/discard, flush,
        /// refresh, sync). Default false: every write is refused with 403.
        public var allowWrites: Bool
        /// The server the store syncs with, shown on the page; nil for none.
        public var server: ServerDescription?
        /// How often the page's view of the store is refreshed after commits (this process's
        /// at once, other processes' as the store notices them: its
        /// `Configuration.externalChangeInterval`). Default 250 ms.
        public var pollInterval: Duration

        /// A configuration; see each property for its default.
        public init(port: Int = 8484, allowWrites: Bool = false, server: ServerDescription? = nil,
                    pollInterval: Duration = .milliseconds(250)) {
            self.port = port
            self.allowWrites = allowWrites
            self.server = server
            self.pollInterval = pollInterval
        }
    }

    /// The server a store syncs with, as the page shows it (never a secret).
    public struct ServerDescription: Sendable, Hashable {
        /// The backend's name, e.g. `kinto`.
        public var backend: String
        /// The server's base URL.
        public var url: String
        /// The bucket (Kinto) or nil.
        public var bucket: String?
        /// The store's write mode, `immediate` or `deferred`.
        public var writeMode: String

        /// A description of the server.
        public init(backend: String, url: String, bucket: String?, writeMode: String) {
            self.backend = backend
            self.url = url
            self.bucket = bucket
            self.writeMode = writeMode
        }
    }

    /// The router that answers every request (usable without the socket, e.g. in tests).
    public let router: InspectorRouter
    /// The address the page is served at.
    public let url: URL

    private let server: LoopbackServer
    private let context: InspectorContext
    private let tasks = Locked<[Task<Void, Never>]>([])

    /// Binds the port and prepares the page; ``start()`` serves it.
    ///
    /// - Throws: ``ServerError`` when the port cannot be bound.
    public init(store: ObjectStore, configuration: Configuration = Configuration()) throws {
        server = try LoopbackServer(port: configuration.port)
        let history = QueueHistory()
        context = InspectorContext(
            store: store, allowWrites: configuration.allowWrites, server: configuration.server, history: history,
            watcher: ChangeWatcher(store: store, history: history, interval: configuration.pollInterval),
            activity: SyncActivity(store: store))
        router = InspectorRouter(context: context, port: server.port)
        url = URL(string: "http://127.0.0.1:\(server.port)/")!
        context.watcher.check()  // the queue's baseline, before any change is noted
    }

    /// Serves the page and starts following the store's changes and sync events.
    public func start() {
        let router = self.router
        tasks.withLock { $0 = [context.watcher.run(), context.activity.follow()] }
        server.start { request in router.handle(request) }
    }

    /// Stops serving and watching (the store stays open: its owner closes it).
    public func stop() {
        server.stop()
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }
}

/// What every route reads: the store and the inspector's own state.
final class InspectorContext: Sendable {
    let store: ObjectStore
    let allowWrites: Bool
    let server: Inspector.ServerDescription?
    let history: QueueHistory
    let watcher: ChangeWatcher
    let activity: SyncActivity

    init(store: ObjectStore, allowWrites: Bool, server: Inspector.ServerDescription?, history: QueueHistory,
         watcher: ChangeWatcher, activity: SyncActivity) {
        self.store = store
        self.allowWrites = allowWrites
        self.server = server
        self.history = history
        self.watcher = watcher
        self.activity = activity
    }
}
