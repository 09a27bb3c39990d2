import Foundation
import Testing
@testable import OfflineStore

/// Refresh reads Kinto pages as they arrive (`KintoPageReader` over `URLSessionTransport.stream`)
/// and applies records before their page ends: every record of a multi-page collection
/// arrives, and a connection that breaks in the middle of a page loses nothing and leaves
/// the cursor where it was (the next refresh reads the page again).
@Suite("Streamed Kinto pages on a real Kinto", .liveServer, .timeLimit(.minutes(5)))
struct KintoStreamedPullTests {
    /// Creates `count` records with ids from `first` through the backend.
    private static func seed(_ backend: KintoBackend, _ collection: String, from first: Int, count: Int) async throws {
        let batch = try await backend.capabilities().maxBatchSize
        for start in stride(from: first, to: first + count, by: batch) {
            let operations = (start..<min(first + count, start + batch)).map { i in
                PushOperation(id: String(format: "r%05d", i), kind: .create,
                              data: ["id": .string(String(format: "r%05d", i)), "n": .int(Int64(i)), "text": "a } ] \" \\ é"],
                              baseVersion: nil, idempotencyKey: UUID().uuidString)
            }
            for outcome in try await backend.push(operations, collection: collection) {
                guard case .applied = outcome else { throw OfflineStoreError(.server, "not created: \(outcome)") }
            }
        }
    }

    /// A new collection in a new bucket holding records `0..<count`, and the backend that wrote them.
    private static func seeded(count: Int) async throws -> (bucket: String, collection: String, writer: KintoBackend) {
        let bucket = KintoServer.uniqueName("b"), collection = KintoServer.uniqueName("s")
        let writer = try KintoServer.backend(bucket: bucket)
        try await writer.prepare(collection: collection)
        try await seed(writer, collection, from: 0, count: count)
        return (bucket, collection, writer)
    }

    @Test func aMultiPageRefreshGetsEveryRecord() async throws {
        let (bucket, collection, _) = try await Self.seeded(count: 1_234)
        try await withTemporaryDirectory { dir in
            let store = try ObjectStore(path: dir.path("s.sqlite"), backend: try KintoServer.backend(bucket: bucket, pageSize: 100))
            defer { try? store.close() }
            try store.register(CollectionDescriptor(collection))
            #expect(try await store.refresh().pulled == 1_234)
            let objects = store.collection(collection)
            #expect(try objects.count() == 1_234)
            #expect(try objects.object("r01233")?.persistent?["n"] == 1_233)
            #expect(try objects.object("r00007")?.persistent?["text"] == "a } ] \" \\ é")
            #expect(try store.syncEngine.storedCursor(of: collection) != nil)
        }
    }

    @Test func aConnectionBrokenMidPageLosesNothingAndKeepsTheCursor() async throws {
        let (bucket, collection, writer) = try await Self.seeded(count: 300)
        try await withTemporaryDirectory { dir in
            let path = dir.path("s.sqlite")
            var first = try ObjectStore(path: path, backend: try KintoServer.backend(bucket: bucket))
            try first.register(CollectionDescriptor(collection))
            #expect(try await first.refresh().pulled == 300)
            let cursor = try #require(try first.syncEngine.storedCursor(of: collection))
            try first.close()
            try await Self.seed(writer, collection, from: 300, count: 2_000)

            // Every answer through the proxy stops after half its body: the first page of 1,500
            // records (the look-back re-reads some of the first 300) breaks after some 750 of
            // them, after at least one applied chunk of 500.
            let proxy = try await FaultProxy.start(upstream: try KintoServer.url(), seed: 1, rate: 1, faults: ["truncated"],
                                                   hold: 0, logPath: dir.path("proxy.log"))
            do {
                let broken = try ObjectStore(path: path, backend: KintoServer.backend(server: proxy.url, bucket: bucket,
                                                                                      pageSize: 1_500))
                try broken.register(CollectionDescriptor(collection))
                await expectStoreError(.timeout) { _ = try await broken.refresh() }
                #expect(try broken.syncEngine.storedCursor(of: collection) == cursor)
                let held = try broken.collection(collection).count()
                #expect(held > 300 && held < 2_300, "applied before the break: \(held)")
                try broken.close()
            } catch {
                await proxy.stop()
                throw error
            }
            await proxy.stop()

            first = try ObjectStore(path: path, backend: try KintoServer.backend(bucket: bucket, pageSize: 1_500))
            defer { try? first.close() }
            try first.register(CollectionDescriptor(collection))
            _ = try await first.refresh()
            let objects = first.collection(collection)
            #expect(try objects.count() == 2_300)
            #expect(try objects.count(where: .equal("n", 2_299)) == 1)
            #expect(try first.syncEngine.storedCursor(of: collection) != cursor)
        }
    }

    /// The next page is asked as soon as the current answer's head names it (so the server
    /// builds it while this one is read), carried by the continuation, and asked only once.
    @Test func theNextPageIsAskedWhileThisOneIsReadAndOnlyOnce() async throws {
        let (bucket, collection, _) = try await Self.seeded(count: 250)
        let recording = RecordingTransport(base: URLSessionTransport())
        let backend = try KintoServer.backend(bucket: bucket, pageSize: 100, transport: recording)
        var pages: [PullPage] = []
        var ids: [String] = []
        var continuation: PullContinuation?
        repeat {
            let page = try await backend.pull(PullRequest(collection: collection, continuation: continuation)) { ids += $0.map(\.id) }
            #expect((page.next?.ahead as? KintoPageAhead) != nil || page.next == nil, "page \(pages.count + 1) carries the next request")
            pages.append(page)
            continuation = page.next
        } while continuation != nil
        #expect(pages.count == 3)
        // Each page starts at the last timestamp of the page before (KintoPageBoundary): that
        // page's last record comes once more, and a re-read changes nothing.
        var expected: [String] = []
        for n in 0..<250 {
            let id = String(format: "r%05d", n)
            expected.append(id)
            if n == 99 || n == 198 { expected.append(id) }
        }
        #expect(ids == expected)
        let gets = recording.requests.filter { $0.method == "GET" && $0.url.path.hasSuffix("/records") }
        #expect(gets.count == 3, "each page asked once: \(gets.map(\.url))")
        #expect(Set(gets.map(\.url)).count == 3)
    }
}
