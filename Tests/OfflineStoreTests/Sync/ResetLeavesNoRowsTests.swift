import Foundation
import GRDB
import OfflineStoreTesting
import Testing
@testable import OfflineStore

/// Every reset removes all of an object it drops: its row, queue entries, usage, blob rows
/// and files, and id aliases. The test counts every table's rows after each reset.
@Suite("Resets leave no rows behind")
struct ResetLeavesNoRowsTests {
    /// Rows per table: objects, queue, object_usage, blobs, id_aliases.
    struct Counts: Equatable, CustomStringConvertible {
        var objects = 0, queue = 0, usage = 0, blobs = 0, aliases = 0
        var description: String { "objects \(objects), queue \(queue), usage \(usage), blobs \(blobs), aliases \(aliases)" }
    }

    static func counts(_ store: ObjectStore) throws -> Counts {
        try store.local.read("counting") { db in
            func count(_ table: String) throws -> Int { try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
            return Counts(objects: try count("objects"), queue: try count("queue"), usage: try count("object_usage"),
                          blobs: try count("blobs"), aliases: try count("id_aliases"))
        }
    }

    /// A synced `todos/s` (used, pinned, with a blob row and file, re-keyed from `tmp-s`), a
    /// pending edit of `todos/e` (used, with a blob row), and a local-only `drafts/d` (used).
    static func withEveryKindOfRow(_ body: (ObjectStore) async throws -> Void) async throws {
        let collections = [CollectionDescriptor("todos"), CollectionDescriptor("drafts", localOnly: true)]
        try await withTemporaryStore(configuration: .with { $0.writeMode = .deferred }, backend: InMemoryBackend(),
                                     collections: collections) { store in
            let todos = store.collection("todos")
            // Each object's copies name its blob, as a blob field does, so the sweep keeps the row.
            try await todos.create(["id": "s", "title": "synced", "photo": ["blob": "b-s"]])
            try await todos.create(["id": "e", "title": "to edit", "photo": ["blob": "b-e"]])
            try await store.sync()
            try await todos.patch("e", ["title": "edited"])
            try await store.collection("drafts").create(["id": "d", "text": "local only"])
            try todos.touch(["s", "e"])
            try todos.pin("s")
            try store.collection("drafts").touch(["d"])
            let files = store.local.blobFiles
            try files.ensureDirectory()
            for id in ["s", "e"] {
                let name = files.reserve()
                let measured = try files.write(Data("blob of \(id)".utf8), to: name)
                files.release(name)
                try store.local.write("adding keyed rows") { db in
                    try BlobRow.put(db, collection: "todos", id: id, field: "photo", file: name,
                                    reference: BlobReference(id: "b-\(id)", size: measured.size, sha256: measured.sha256,
                                                             mimetype: "text/plain"), state: .synced)
                }
            }
            try store.local.write("adding an alias") { db in
                try ObjectKeyedTables.recordAlias(db, collection: "todos", temporaryID: "tmp-s", serverID: "s")
            }
            #expect(try counts(store) == Counts(objects: 3, queue: 1, usage: 3, blobs: 2, aliases: 1))
            try await body(store)
        }
    }

    /// Blob rows name files; both must go together.
    static func blobFileCount(_ store: ObjectStore) -> Int { store.local.blobFiles.names().count }

    @Test func resetSyncStateKeepsPendingEditsAndDropsEverythingOfTheSyncedObject() async throws {
        try await Self.withEveryKindOfRow { store in
            try await store.resetSyncState()
            #expect(try Self.counts(store) == Counts(objects: 2, queue: 1, usage: 2, blobs: 1, aliases: 0))
            #expect(Self.blobFileCount(store) == 1)
        }
    }

    @Test func resetSyncStateWithoutPendingEditsKeepsOnlyLocalOnlyCollections() async throws {
        try await Self.withEveryKindOfRow { store in
            try await store.resetSyncState(keepingPendingEdits: false)
            #expect(try Self.counts(store) == Counts(objects: 1, queue: 0, usage: 1, blobs: 0, aliases: 0))
            #expect(Self.blobFileCount(store) == 0)
        }
    }

    @Test func resetCollectionDropsThatCollectionsRowsOnly() async throws {
        try await Self.withEveryKindOfRow { store in
            try await store.resetCollection("todos", keepingPendingEdits: false)
            #expect(try Self.counts(store) == Counts(objects: 1, queue: 0, usage: 1, blobs: 0, aliases: 0))
            #expect(Self.blobFileCount(store) == 0)
        }
    }

    @Test func resetAllLeavesNothingKeyedByAnObject() async throws {
        try await Self.withEveryKindOfRow { store in
            try await store.resetAll()
            #expect(try Self.counts(store) == Counts())
            #expect(Self.blobFileCount(store) == 0)
            #expect(store.collections().map(\.name) == ["drafts", "todos"])
        }
    }
}
