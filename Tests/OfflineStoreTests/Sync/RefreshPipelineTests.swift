import Foundation
import OfflineStoreTesting
import Testing
@testable import OfflineStore

/// A refresh reads a page and applies it one chunk apart (`SyncEngine.pullPages`): a chunk's
/// transaction runs in a task of its own while the next chunk is read. Every counted change
/// reaches the report, transactions stay whole and in order, and a page that breaks off
/// leaves exactly the chunks applied before the break and the cursor where it was, and is
/// not asked again. The server hands a page over in groups of 250 (``PageHookBackend``).
@Suite("Refresh reads and applies one chunk apart")
struct RefreshPipelineTests {
    static func server(records: Int) -> InMemoryBackend {
        let server = InMemoryBackend(configuration: .init(pageSize: 10_000))
        for i in 0..<records {
            _ = server.put(collection: "items", id: String(format: "i%05d", i), record: ["n": .int(Int64(i))])
        }
        return server
    }

    /// 1,750 changes in groups of 250: three chunks of 500 go while the page is read, the
    /// last 250 with the cursor; every one is counted.
    @Test func everyChunkAppliedIsCountedAndTheCursorMovesWithThePage() async throws {
        let server = Self.server(records: 1_750)
        let backend = PageHookBackend(base: server, grouping: (250, nil))
        try await withTemporaryStore(backend: backend, collections: [CollectionDescriptor("items")]) { store in
            let report = try await store.refresh()
            #expect(report.pulled == 1_750)
            #expect(try store.collection("items").count() == 1_750)
            #expect(try store.collection("items").object("i01749")?.persistent?["n"] == 1_749)
            #expect(try store.syncEngine.storedCursor(of: "items") != nil)
        }
    }

    /// A chunk of 500 goes once more has arrived after it: groups of 250 start chunks at 750,
    /// 1,250 and 1,750 records handed over. The break comes while the third may still be
    /// under way: it is applied whole, the 250 held after it not, nor the cursor.
    @Test func aPageBrokenOffKeepsTheWholeChunksBeforeTheBreakAndNoCursor() async throws {
        let server = Self.server(records: 2_000)
        try await withTemporaryDirectory { directory in
            let path = directory.path("s.sqlite")
            do {
                let broken = try ObjectStore(path: path, backend: PageHookBackend(base: server, grouping: (250, 1_750)))
                defer { try? broken.close() }
                try broken.register(CollectionDescriptor("items"))
                await expectStoreError(.timeout) { _ = try await broken.refresh() }
                #expect(try broken.collection("items").count() == 1_500)
                #expect(try broken.syncEngine.storedCursor(of: "items") == nil)
                // A first page that broke after handing changes over is not asked again (a
                // retry would put the held changes before a page read anew).
                #expect(server.pullCallCount == 1)
            }
            let store = try ObjectStore(path: path, backend: PageHookBackend(base: server, grouping: (250, nil)))
            defer { try? store.close() }
            try store.register(CollectionDescriptor("items"))
            _ = try await store.refresh()
            #expect(try store.collection("items").count() == 2_000)
            #expect(try store.syncEngine.storedCursor(of: "items") != nil)
        }
    }
}
