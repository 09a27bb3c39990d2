import Foundation
import OfflineStore
import OfflineStoreTesting
import Testing

/// The backends the scenario suite runs against.
enum BackendKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory, kinto
    var testDescription: String { rawValue }
}

/// A server for one scenario: the backend a store uses, and "another client" that
/// edits the server directly, plus fault injection.
protocol SyncHarness: Sendable {
    var backend: any Backend { get }
    func serverPut(_ collection: String, _ id: String, _ record: JSONValue) async throws
    func serverDelete(_ collection: String, _ id: String) async throws
    func serverGet(_ collection: String, _ id: String) async throws -> JSONValue?
    func serverAll(_ collection: String) async throws -> [String: JSONValue]
    /// Record writes (each batch sub-request counts) the server received so far.
    var writeCount: Int { get }
    func failNextPush(status: Int)
    func loseNextPushResponse()
    func beforeNextPush(_ hook: @escaping @Sendable () async -> Void)
    func beforeSecondPage(_ hook: @escaping @Sendable () async -> Void)
    /// Makes the server unreachable (connection refused) or reachable again.
    func setUnreachable(_ unreachable: Bool)
}

extension SyncHarness {
    /// A new ``TemporaryStore`` talking to this harness's backend, with a `todos` collection;
    /// it lives as long as the returned ``TemporaryStore``.
    func makeStore(writeMode: WriteMode = .deferred, policy: ConflictPolicy = .preserveConflict,
                   updatePolicy: UpdatePolicy = .queueIfOffline) throws -> (ObjectStore, TemporaryStore) {
        let temporary = try TemporaryStore(configuration: .with { $0.writeMode = writeMode; $0.updatePolicy = updatePolicy },
                                           backend: backend, collections: [CollectionDescriptor("todos", conflictPolicy: policy)])
        return (temporary.store, temporary)
    }
}

/// The one place scenario tests get a server and a store from.
enum Harness {
    /// A server of `kind` (pages of `pageSize` records).
    static func make(_ kind: BackendKind, pageSize: Int = 100) async throws -> any SyncHarness {
        switch kind {
        case .memory: MemoryHarness(pageSize: pageSize)
        case .kinto: try KintoHarness(pageSize: pageSize)
        }
    }

    /// A server of `kind` and a new store on it with a `todos` collection (see
    /// ``SyncHarness/makeStore(writeMode:policy:updatePolicy:)``); the store lives as long as
    /// the ``TemporaryStore``, whose directory other stores may share.
    static func store(_ kind: BackendKind, pageSize: Int = 100, writeMode: WriteMode = .deferred,
                      policy: ConflictPolicy = .preserveConflict, updatePolicy: UpdatePolicy = .queueIfOffline)
        async throws -> (any SyncHarness, ObjectStore, TemporaryStore) {
        let server = try await make(kind, pageSize: pageSize)
        let (store, directory) = try server.makeStore(writeMode: writeMode, policy: policy, updatePolicy: updatePolicy)
        return (server, store, directory)
    }
}

struct MemoryHarness: SyncHarness {
    let memory: InMemoryBackend
    let hooked: PageHookBackend
    var backend: any Backend { hooked }

    init(pageSize: Int) {
        memory = InMemoryBackend(pageSize: pageSize)
        hooked = PageHookBackend(base: memory)
    }

    func serverPut(_ collection: String, _ id: String, _ record: JSONValue) async throws {
        memory.put(collection: collection, id: id, record: record.withID(id))
    }
    func serverDelete(_ collection: String, _ id: String) async throws { memory.delete(collection: collection, id: id) }
    func serverGet(_ collection: String, _ id: String) async throws -> JSONValue? {
        memory.serverRecord(collection: collection, id: id)?.record
    }
    func serverAll(_ collection: String) async throws -> [String: JSONValue] { memory.allRecords(collection: collection) }
    var writeCount: Int { memory.writeCount }
    func failNextPush(status: Int) {
        memory.inject(.status(status, body: #"{"code":\#(status),"message":"injected failure"}"#).only(.push))
    }
    func loseNextPushResponse() { memory.inject(.appliedButResponseLost.only(.push)) }
    func beforeNextPush(_ hook: @escaping @Sendable () async -> Void) {
        // Handed out once and dropped: a hook captures the store, whose backend holds
        // `onPush`, so a hook kept after its push would keep the store alive for good.
        let pending = Locked<(@Sendable () async -> Void)?>(hook)
        memory.onPush = { _ in await pending.withLock { h in defer { h = nil }; return h }?() }
    }
    func beforeSecondPage(_ hook: @escaping @Sendable () async -> Void) {
        hooked.beforeNextPage(hook)
    }
    func setUnreachable(_ unreachable: Bool) {
        if unreachable { memory.inject(.offline, times: 1_000) } else { memory.clearFaults() }
    }
}

extension JSONValue {
    func withID(_ id: String) -> JSONValue {
        guard case .object(var o) = self else { return self }
        o["id"] = .string(id)
        return .object(o)
    }
}

/// Delegates to a backend, running a hook before the next continued page of a pull (and one
/// before the next departure pull, ``beforeDeparturePull(_:)``); with
/// `grouping`, a refresh's streamed pull hands its page over in groups of `size` changes, as
/// a backend reading a page from the network does, and throws `timeout` once `breakAfter`
/// of them went (a connection lost mid-page).
final class PageHookBackend: Backend {
    let base: any Backend
    let grouping: (size: Int, breakAfter: Int?)?
    private let hooks = Locked<[@Sendable () async -> Void]>([])
    private let departureHook = Locked<(@Sendable () -> Void)?>(nil)
    init(base: any Backend, grouping: (size: Int, breakAfter: Int?)? = nil) {
        self.base = base
        self.grouping = grouping
    }
    func beforeNextPage(_ hook: @escaping @Sendable () async -> Void) { hooks.withLock { $0.append(hook) } }
    /// Runs `hook` once, before the next light pull of a scoped refresh (a ``PullRequest`` with ``PullRequest/Hints/fields``).
    func beforeDeparturePull(_ hook: @escaping @Sendable () -> Void) { departureHook.withLock { $0 = hook } }
    func validate(id: String, in collection: String) throws { try base.validate(id: id, in: collection) }
    func capabilities() async throws -> BackendCapabilities { try await base.capabilities() }
    func prepare(collection: String) async throws { try await base.prepare(collection: collection) }
    func push(_ operations: [PushOperation], collection: String) async throws -> [PushOutcome] {
        try await base.push(operations, collection: collection)
    }
    /// A scope is dropped on the way to `base` (every change is pulled, and the records that
    /// match are kept with every tombstone), as a server that cannot filter does.
    func pull(_ request: PullRequest, delivering deliver: ([RemoteChange]) async throws -> Void) async throws -> PullPage {
        if request.hints.fields != nil {
            departureHook.withLock { hook in defer { hook = nil }; return hook }?()
            return try await base.pull(request)
        }
        if request.continuation != nil, let hook = hooks.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { await hook() }
        var unscoped = request
        unscoped.scope = nil
        unscoped.hints.needsDeletions = true
        var page = try await base.pull(unscoped).keeping(request.scope)
        guard let grouping else { return page }
        var handed = 0
        for start in stride(from: 0, to: page.changes.count, by: grouping.size) {
            if let breakAfter = grouping.breakAfter, handed >= breakAfter {
                throw OfflineStoreError(.timeout, "the connection broke after \(handed) records")
            }
            let group = Array(page.changes[start..<min(page.changes.count, start + grouping.size)])
            try await deliver(group)
            handed += group.count
        }
        page.changes = []
        return page
    }
    func ping() async throws { try await base.ping() }
    func fetch(collection: String, id: String) async throws -> RemoteChange? {
        try await base.fetch(collection: collection, id: id)
    }
    func search(collection: String, query: ServerQuery, continuing: PullContinuation?) async throws -> PullPage {
        try await base.search(collection: collection, query: query, continuing: continuing)
    }
}
