import Foundation
@testable import OfflineStore
import OfflineStoreTesting
import Testing

/// What a store opens with it, and keeps open, for its files' protection class: under
/// `.completeUnlessOpen` every reader connection and the sync lock file, since the device's
/// lock refuses new opens; under the other classes nothing ahead.
@Suite struct KeptOpenFilesTests {
    @Test(arguments: ObjectStore.FileProtection.allCases.map(Optional.some) + [nil])
    func onlyCompleteUnlessOpenKeepsFilesOpen(_ protection: ObjectStore.FileProtection?) {
        let kept = KeptOpenFiles(protection: protection, isInMemory: false, maximumReaderCount: 5)
        if protection == .completeUnlessOpen {
            #expect(kept == KeptOpenFiles(readers: 5, syncLockFile: true))
        } else {
            #expect(kept == .onDemand)
        }
        #expect(KeptOpenFiles(protection: protection, isInMemory: true, maximumReaderCount: 5) == .onDemand,
                "an in-memory store has no file")
    }

    /// Opens a file store under `protection` in `directory`/store, with one queued edit,
    /// then makes every new open of its files fail as a locked device does under
    /// `.completeUnlessOpen` (the folder is moved away: descriptors already open keep
    /// working, opening by path fails) and runs `body`; moves the folder back after.
    static func withFilesUnopenable(_ protection: ObjectStore.FileProtection?,
                                    _ body: (ObjectStore) async throws -> Void) async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("kept-open-\(UUID().uuidString)")
        let folder = base.appendingPathComponent("store"), away = base.appendingPathComponent("away")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        var configuration = ObjectStore.Configuration()
        configuration.fileProtection = protection
        configuration.writeMode = .deferred
        let store = try ObjectStore(path: folder.appendingPathComponent("store.sqlite").path,
                                    configuration: configuration, backend: InMemoryBackend())
        defer { try? store.close() }
        try store.register(CollectionDescriptor("todos"))
        try await store.collection("todos").create(["id": "t1"])
        try FileManager.default.moveItem(at: folder, to: away)
        defer { try? FileManager.default.moveItem(at: away, to: folder) }
        try await body(store)
    }

    /// Starts `count` reads at once, each holding its connection until all have started or
    /// failed; returns how many got a connection.
    static func concurrentReads(_ store: ObjectStore, count: Int) -> Int {
        let arrived = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        let succeeded = Locked(0)
        for _ in 0..<count {
            done.enter()
            Thread {
                let read: Void? = try? store.local.read("reading at once") { _ in
                    arrived.signal()
                    release.wait()
                }
                if read == nil { arrived.signal() } else { succeeded.withLock { $0 += 1 } }
                done.leave()
            }.start()
        }
        for _ in 0..<count { arrived.wait() }
        for _ in 0..<count { release.signal() }
        done.wait()
        return succeeded.withLock { $0 }
    }

    @Test func underCompleteUnlessOpenReadsAndTheSyncLockNeedNoNewOpen() async throws {
        try await Self.withFilesUnopenable(.completeUnlessOpen) { store in
            #expect(Self.concurrentReads(store, count: 5) == 5, "every reader was opened with the store")
            #expect(try store.collection("todos").find("t1") != nil)
            let held = try await store.syncEngine.lock.withLock(whenCancelledWaiting: { SyncReport() }) { store.isSyncing }
            #expect(held, "the sync lock file was opened with the store")
        }
    }

    /// The control: without the class, the same reads and lock need new opens, which fail here.
    @Test func underOtherClassesTheyOpenOnDemand() async throws {
        try await Self.withFilesUnopenable(.completeUntilFirstUserAuthentication) { store in
            #expect(Self.concurrentReads(store, count: 5) < 5, "readers beyond those already open cannot be opened")
            let error = await #expect(throws: OfflineStoreError.self) {
                try await store.syncEngine.lock.withLock(whenCancelledWaiting: { SyncReport() }) { true }
            }
            #expect(error?.code == .storage && error?.message.contains("sync lock file") == true, "\(String(describing: error))")
        }
    }
}
