import Foundation
import Testing
@testable import OfflineStore

/// A pull from the beginning asks Kinto for deletions (`_since=0`) only when the store holds
/// server copies a deletion could remove; a fresh store lists live records, which Kinto's
/// memory backend serves several times faster.
@Suite("Fresh pulls on a real Kinto: tombstones only where they can matter")
struct FreshPullKintoTests {
    private func op(_ kind: QueueEntry.Kind, _ id: String, base: String? = nil) -> PushOperation {
        PushOperation(id: id, kind: kind, data: kind == .delete ? nil : ["id": .string(id), "n": 1], baseVersion: base,
                      idempotencyKey: UUID().uuidString)
    }

    /// The query of every records list the transport sent, in order.
    private func listQueries(_ transport: RecordingTransport) -> [String] {
        transport.requests.filter { $0.method == "GET" && $0.url.path.hasSuffix("/records") }.map { $0.url.query ?? "" }
    }

    @Test(.liveServer) func freshStoreListsLiveRecordsAndAFullRefreshReadsDeletions() async throws {
        let writer = try KintoServer.backend()
        let collection = KintoServer.uniqueName("fresh")
        try await writer.prepare(collection: collection)
        let created = try await writer.push([op(.create, "a"), op(.create, "b"), op(.create, "c")], collection: collection)
        guard case .applied(_, let bVersion?) = created[1] else { Issue.record("b was not created: \(created)"); return }
        _ = try await writer.push([op(.delete, "b", base: bVersion)], collection: collection)

        let recording = RecordingTransport(base: URLSessionTransport())
        let backend = try KintoServer.backend(bucket: writer.configuration.bucket, transport: recording)
        try await withTemporaryDirectory { dir in
            let store = try ObjectStore(path: dir.path("s.sqlite"), backend: backend)
            defer { try? store.close() }
            try store.register(CollectionDescriptor(collection))

            // Fresh: live records only, no `_since`.
            let first = try await store.refresh()
            #expect(first.pulled == 2)
            #expect(try store.collection(collection).objects().map(\.id).sorted() == ["a", "c"])
            #expect(listQueries(recording) == ["_sort=last_modified&_limit=500"])

            // Another client deletes a; a full refresh keeps the copies it holds, so it asks for tombstones.
            let aVersion = try #require(try store.collection(collection).object("a")?.serverVersion)
            _ = try await writer.push([op(.delete, "a", base: aVersion)], collection: collection)
            _ = try await store.refresh(full: true)
            #expect(listQueries(recording).last == "_since=0&_sort=last_modified&_limit=500")
            #expect(try store.collection(collection).objects().map(\.id) == ["c"])

            // From a cursor: `_since` as always.
            _ = try await store.refresh()
            #expect(listQueries(recording).last?.hasPrefix("_since=") == true)
            #expect(listQueries(recording).last != "_since=0&_sort=last_modified&_limit=500")

            // A resync drops the server copies first: nothing left to remove, live records only.
            _ = try await store.resyncFromServer()
            #expect(listQueries(recording).last == "_sort=last_modified&_limit=500")
            #expect(try store.collection(collection).objects().map(\.id) == ["c"])
        }
    }

    /// The refresh prepares the collection alongside its first request: into a bucket that
    /// does not exist yet, that request is refused, then asked again once the bucket exists.
    @Test(.liveServer) func firstRefreshIntoAMissingBucketPreparesAndAsksAgain() async throws {
        let recording = RecordingTransport(base: URLSessionTransport())
        let backend = try KintoServer.backend(transport: recording)
        let collection = KintoServer.uniqueName("new")
        try await withTemporaryDirectory { dir in
            let store = try ObjectStore(path: dir.path("s.sqlite"), backend: backend)
            defer { try? store.close() }
            try store.register(CollectionDescriptor(collection))
            let report = try await store.refresh()
            #expect(report.pulled == 0)
            let methods = recording.requests.map(\.method)
            #expect(methods.filter { $0 == "PUT" }.count == 2, "bucket and collection created: \(methods)")
            // The first page is asked once, or once more after the bucket exists: never more.
            #expect((1...2).contains(methods.filter { $0 == "GET" }.count), "\(methods)")
            // The collection exists now: a create and a second refresh work.
            try await store.collection(collection).create(["id": "x", "n": 1])
            _ = try await store.sync()
            #expect(try store.collection(collection).object("x")?.state == .synced)
        }
    }
}
