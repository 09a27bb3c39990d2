import Foundation
@testable import OfflineStore
import OfflineStoreTesting
import Testing

/// A store that was used (edits sent in the background, a sync, every kind of observation)
/// and closed is freed once the app lets it go: nothing the store started keeps it, its
/// database or its sync engine alive. The address sanitizer's leak check found stores
/// kept to the end of the test process (Docs/Reliability.md, "Sanitizers"); these tests
/// pin the store's own part of that down without a sanitizer.
@Suite("A closed store is freed", .timeLimit(.minutes(5)))
struct StoreLifetimeTests {
    /// Weak references to a store's parts, read once the store is gone.
    final class Parts {
        weak var store: ObjectStore?
        weak var local: LocalStore?
        weak var engine: SyncEngine?
        weak var observers: StoreObservers?
        weak var backend: InMemoryBackend?

        var alive: [String] {
            [("ObjectStore", store != nil), ("LocalStore", local != nil), ("SyncEngine", engine != nil),
             ("StoreObservers", observers != nil), ("InMemoryBackend", backend != nil)]
                .filter(\.1).map(\.0)
        }
    }

    /// Opens a store (on file or in memory) with an in-memory server, uses it the ways an
    /// app does, closes it and waits for what the close ended; returns weak references only.
    static func useAndClose(onFile: Bool, directory: URL) async throws -> Parts {
        let backend = InMemoryBackend()
        var configuration = ObjectStore.Configuration()
        configuration.writeMode = .immediate
        configuration.externalChangeInterval = onFile ? .milliseconds(10) : nil
        let store = try onFile
            ? ObjectStore(path: directory.appendingPathComponent("store.sqlite").path, configuration: configuration, backend: backend)
            : ObjectStore.inMemory(configuration: configuration, backend: backend)
        let parts = Parts()
        parts.store = store
        parts.local = store.local
        parts.engine = store.syncEngine
        parts.observers = store.observers
        parts.backend = backend

        try store.register(CollectionDescriptor("todos"))
        let commits = store.commits(), changes = store.changes(), events = store.syncEvents()
        let listeners = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for await _ in commits {} }
                group.addTask { for await _ in changes {} }
                group.addTask { for await _ in events {} }
            }
        }
        let pending = store.observePendingCount()
        let observing = Task { for try await _ in pending {} }
        var objects = store.collection("todos").observeAll().makeAsyncIterator()
        _ = try await objects.next()

        _ = try await store.collection("todos").create(["id": "a", "title": "sent in the background"])
        backend.put(collection: "todos", id: "b", record: ["id": "b", "title": "from the server"])
        _ = try await store.sync()
        _ = try await store.collection("todos").patch("a", ["title": "sent again"])

        try store.close()
        await store.syncEngine.sender.stopped()
        await listeners.value
        _ = await observing.result
        while try await objects.next() != nil {}   // values made before the close, then the end
        await store.observers.externalChanges.stopped()
        return parts
    }

    @Test(arguments: [false, true])
    func aStoreThatSentObservedAndSyncedIsFreedOnceClosedAndReleased(onFile: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("StoreLifetimeTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let parts = try await Self.useAndClose(onFile: onFile, directory: directory)
        #expect(parts.alive == [], "still alive after close and release")
    }
}
