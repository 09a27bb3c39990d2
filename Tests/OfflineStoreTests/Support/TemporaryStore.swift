import Foundation
import GRDB
import OfflineStoreTesting
import Testing
@testable import OfflineStore

/// A fresh directory under the system's temporary directory, removed by ``remove()``.
///
/// Tests run in parallel, so every test gets a directory of its own.
struct TemporaryDirectory: Sendable {
    /// The directory's URL.
    let url: URL

    /// Creates a new, empty directory.
    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("OfflineStoreTests-\(UUID().uuidString.lowercased())", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of a file inside the directory.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Removes the directory and everything in it.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Runs `body` with a temporary directory that is removed afterwards, whatever happens.
func withTemporaryDirectory<T>(_ body: (TemporaryDirectory) async throws -> T) async throws -> T {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    return try await body(directory)
}

/// A new store in a temporary directory of its own, `collections` registered: the one way
/// tests make a store. Closed, and its directory removed, when it is released; the helpers
/// below release it when their body returns.
///
/// Without a backend (the default) the store is offline. `inMemory` makes an
/// ``ObjectStore/inMemory(configuration:backend:)`` store instead of a file (the directory
/// then only holds what the test puts there).
final class TemporaryStore: Sendable {
    /// The directory the store file lives in (other stores may share it: ``path(_:)``).
    let directory: TemporaryDirectory
    let store: ObjectStore

    init(inMemory: Bool = false, configuration: ObjectStore.Configuration = ObjectStore.Configuration(),
         backend: (any Backend)? = nil, collections: [CollectionDescriptor] = []) throws {
        directory = try TemporaryDirectory()
        do {
            store = inMemory ? try ObjectStore.inMemory(configuration: configuration, backend: backend)
                : try ObjectStore(path: directory.path("store.sqlite"), configuration: configuration, backend: backend)
            for descriptor in collections { try store.register(descriptor) }
        } catch {
            directory.remove()
            throw error
        }
    }

    /// The path of a file next to the store file.
    func path(_ name: String) -> String { directory.path(name) }

    deinit {
        try? store.close()
        directory.remove()
    }
}

/// Runs `body` with a ``TemporaryStore``'s store, released when `body` returns.
///
/// ```swift
/// try await withTemporaryStore(collections: [CollectionDescriptor("todos")]) { store in
///     try await store.collection("todos").create(["title": "Buy milk"])
/// }
/// ```
func withTemporaryStore<T>(
    inMemory: Bool = false,
    configuration: ObjectStore.Configuration = ObjectStore.Configuration(),
    backend: (any Backend)? = nil,
    collections: [CollectionDescriptor] = [],
    _ body: (ObjectStore) async throws -> T
) async throws -> T {
    let temporary = try TemporaryStore(inMemory: inMemory, configuration: configuration, backend: backend, collections: collections)
    defer { withExtendedLifetime(temporary) {} }
    return try await body(temporary.store)
}

/// The usual set-up of a sync test: ``withTemporaryStore(inMemory:configuration:backend:collections:_:)``
/// on `server` (a new `InMemoryBackend()`), whose edits queue until a flush unless
/// `configuration` says otherwise (``ObjectStore/Configuration/deferred``).
func withTemporaryStore<T>(
    server: InMemoryBackend,
    configuration: ObjectStore.Configuration = .deferred,
    collections: [CollectionDescriptor] = [],
    _ body: (ObjectStore, InMemoryBackend) async throws -> T
) async throws -> T {
    try await withTemporaryStore(configuration: configuration, backend: server, collections: collections) { store in
        try await body(store, server)
    }
}

extension ObjectStore.Configuration {
    /// A configuration with a few properties changed.
    static func with(_ change: (inout ObjectStore.Configuration) -> Void) -> ObjectStore.Configuration {
        ObjectStore.Configuration().with(change)
    }

    /// This configuration with a few properties changed.
    func with(_ change: (inout ObjectStore.Configuration) -> Void) -> ObjectStore.Configuration {
        var configuration = self
        change(&configuration)
        return configuration
    }

    /// Deferred writes: edits queue until a flush (the usual set-up of a sync test).
    static var deferred: ObjectStore.Configuration { .with { $0.writeMode = .deferred } }
}

extension ObjectStore {
    /// Writes an object as if the server had sent it: synced, with a persistent copy and
    /// a server version, and no queue entry (no backend is needed).
    func seedSynced(_ collection: String, _ value: JSONValue, version: String = "v1") throws {
        let id = try #require(value["id"]?.stringValue)
        try local.write("seeding \(collection)/\(id)") { db in
            var row = ObjectRow(collection: collection, id: id)
            row.persistent = value
            row.serverVersion = version
            row.state = .synced
            try row.save(db)
        }
    }

    /// Sets the state of a queue entry, as a flush would (in flight) or a rejection would (failed).
    func setQueueState(_ state: QueueEntry.State, seq: Int64) throws {
        try local.write("setting a queue state") { db in
            try db.execute(sql: "UPDATE queue SET state = ? WHERE seq = ?", arguments: [state.rawValue, seq])
        }
    }

    /// The single queue entry of an object; fails the test when there is not exactly one.
    func onlyEntry(_ collection: String, _ id: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> QueueEntry {
        let entries = try queueEntries(collection: collection, id: id)
        try #require(entries.count == 1, "expected one entry for \(collection)/\(id), got \(entries)", sourceLocation: sourceLocation)
        return entries[0]
    }
}
