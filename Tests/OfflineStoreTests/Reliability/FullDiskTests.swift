import Foundation
import GRDB
import Testing
import OfflineStorePlatform
import OfflineStoreTestPlatform
@testable import OfflineStore

/// A store on a full disk refuses the write that does not fit with a clear, typed error,
/// keeps every acknowledged edit and leaves nothing half-written (SPEC §2, §11).
///
/// Where the platform layer can mount one (`SmallVolume`: a tmpfs, as root on Linux) the
/// store lives on a 1 MiB file system, a real full disk; elsewhere SQLite's
/// `PRAGMA max_page_count` simulates it.
/// The test prints which one ran.
@Suite("Store on a full disk")
struct FullDiskTests {
    @Test func aFullDiskRefusesTheWriteCleanlyAndKeepsEveryAcknowledgedEdit() async throws {
        try await withTemporaryDirectory { directory in
            let mountPoint = directory.path("tmpfs")
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
            let mounted = try await offPool { SmallVolume.mount(at: mountPoint, kilobytes: 1024) }
            print("FullDiskTests: \(mounted ? "a 1 MiB tmpfs (real ENOSPC)" : "PRAGMA max_page_count (simulated)")")
            let path = mounted ? mountPoint + "/store.sqlite" : directory.path("store.sqlite")
            do { try await Self.fill(path: path, simulate: !mounted) } catch {
                if mounted { try await offPool { SmallVolume.unmount(mountPoint) } }
                throw error
            }
            if mounted { try await offPool { SmallVolume.unmount(mountPoint) } }
        }
    }

    /// Fills the store at `path` until a write fails, then checks what is left.
    static func fill(path: String, simulate: Bool) async throws {
        do {  // one scope, so the store is closed before the file system is unmounted
            let store = try ObjectStore(path: path)
            defer { try? store.close() }
            try store.register(CollectionDescriptor("items"))
            if simulate {
                try store.local.write("limiting the file") { db in try db.execute(sql: "PRAGMA max_page_count = 120") }
            }
            let items = store.collection("items")
            let payload = String(repeating: "x", count: 3_000)
            var acknowledged: [String] = []
            var failure: OfflineStoreError?
            for n in 0..<5_000 {
                do {
                    _ = try await items.create(["id": .string("item-\(n)"), "payload": .string(payload)])
                    acknowledged.append("item-\(n)")
                } catch let error as OfflineStoreError {
                    failure = error
                    break
                }
            }
            let error = try #require(failure, "the disk never filled up")
            #expect(error.code == .storage, "\(error)")
            #expect(error.message.contains("full"), "the message should say the disk is full: \(error.message)")
            #expect(acknowledged.count > 10, "the file system filled before 11 edits: \(acknowledged.count)")

            // Every acknowledged edit is there with its queue entry; the refused one left nothing.
            #expect(try items.count() == acknowledged.count)
            #expect(try store.queueCount() == acknowledged.count)
            #expect(try items.find("item-\(acknowledged.count)") == nil)
            let integrity = try store.local.read("integrity") { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            #expect(integrity == ["ok"])
            // Reads still work on the full disk.
            #expect(try items.find(acknowledged[0])?["payload"] == .string(payload))
        }
    }
}
