import Foundation
import GRDB
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

/// Runs `body` with a new store in a fresh temporary directory, with `collections`
/// registered; without a backend (the default) the store is offline. The store is closed
/// and its directory removed afterwards.
///
/// ```swift
/// try await withTemporaryStore(collections: [CollectionDescriptor("todos")]) { store in
///     try await store.collection("todos").create(["title": "Buy milk"])
/// }
/// ```
func withTemporaryStore<T>(
    configuration: ObjectStore.Configuration = ObjectStore.Configuration(),
    backend: (any Backend)? = nil,
    collections: [CollectionDescriptor] = [],
    _ body: (ObjectStore) async throws -> T
) async throws -> T {
    try await withTemporaryDirectory { directory in
        let store = try ObjectStore(path: directory.path("store.sqlite"), configuration: configuration, backend: backend)
        defer { try? store.close() }
        for descriptor in collections { try store.register(descriptor) }
        return try await body(store)
    }
}

extension ObjectStore.Configuration {
    /// A configuration with a few properties changed.
    static func with(_ change: (inout ObjectStore.Configuration) -> Void) -> ObjectStore.Configuration {
        var configuration = ObjectStore.Configuration()
        change(&configuration)
        return configuration
    }
}

extension ObjectStore {
    /// Writes an object as if the server had sent it: synced, with a persistent copy and
    /// a server version, and no queue entry (no backend is needed).
    func seedSynced(_ collection: String, _ value: JSONValue, version: String = "v1") throws {
        let id = try #require(value["id"]?.stringValue)
        try write("seeding \(collection)/\(id)") { db in
            var row = ObjectRow(collection: collection, id: id)
            row.persistent = value
            row.serverVersion = version
            row.state = .synced
            try row.save(db)
        }
    }

    /// Sets the state of a queue entry, as a flush would (in flight) or a rejection would (failed).
    func setQueueState(_ state: QueueEntry.State, seq: Int64) throws {
        try write("setting a queue state") { db in
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
