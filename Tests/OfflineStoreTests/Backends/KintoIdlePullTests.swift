import Foundation
import OfflineStore
import Testing

/// What an idle sync costs on Kinto: a pull with a cursor asks `If-None-Match: "<since>"`,
/// and a collection with nothing newer answers 304 without a record list; a collection the
/// store pulled before is not prepared again by a fresh process (Docs/Scaling.md). The
/// look-back is zero here, so the window the cursor waits for (`KintoCursor`) is closed at once.
@Suite struct KintoIdlePullTests {
    private static func backend(bucket: String, transport: any HTTPTransport = URLSessionTransport()) throws -> KintoBackend {
        try KintoServer.backend(bucket: bucket, lookBack: .zero, transport: transport)
    }

    private static func create(_ id: String, on backend: KintoBackend, in collection: String) async throws {
        let outcome = try await backend.push([PushOperation(id: id, kind: .create, data: ["n": 1], baseVersion: nil,
                                                            idempotencyKey: UUID().uuidString)], collection: collection)
        guard case .applied = outcome.first else { throw HarnessError("creating \(id): \(outcome)") }
    }

    @Test(.liveServer) func aPullWithNothingNewerIsAnswered304AndKeepsTheCursor() async throws {
        let recorder = AnswerRecordingTransport()
        let collection = KintoServer.uniqueName("c")
        let backend = try Self.backend(bucket: KintoServer.uniqueName("b"), transport: recorder)
        try await backend.prepare(collection: collection)
        try await Self.create("r1", on: backend, in: collection)
        let cursor = try #require(try await backend.pull(PullRequest(collection: collection)).cursor)

        recorder.reset()
        let idle = try await backend.pull(PullRequest(collection: collection, cursor: cursor))
        #expect(idle.changes.isEmpty && idle.cursor == nil && idle.next == nil)
        #expect(recorder.exchanges.map(\.status) == [304])
        #expect(recorder.exchanges.first?.request.headers.contains { $0.0 == "If-None-Match" && $0.1 == "\"\(cursor)\"" } == true)

        // Something newer: the same pull brings it, with a new cursor.
        try await Self.create("r2", on: backend, in: collection)
        let next = try await backend.pull(PullRequest(collection: collection, cursor: cursor))
        #expect(next.changes.map(\.id) == ["r2"] && next.cursor != nil && next.cursor != cursor)
    }

    @Test(.liveServer) func anIdleSyncOfAFreshProcessSendsOneSmallRequestPerCollection() async throws {
        let names = ["a", "b", "c"]
        let bucket = KintoServer.uniqueName("b")
        try await withTemporaryDirectory { directory in
            func open(_ transport: any HTTPTransport) throws -> ObjectStore {
                let store = try ObjectStore(path: directory.path("store.sqlite"),
                                            backend: try Self.backend(bucket: bucket, transport: transport))
                for name in names { try store.register(CollectionDescriptor(name)) }
                return store
            }
            let first = try open(URLSessionTransport())
            for name in names { _ = try await first.collection(name).save(["id": "x", "in": .string(name)]) }
            _ = try await first.sync()
            try first.close()

            // A new process: nothing new on the server, nothing queued.
            let recorder = AnswerRecordingTransport()
            let store = try open(recorder)
            defer { try? store.close() }
            let report = try await store.sync()
            #expect(report.pulled == 0 && report.pushed == 0)
            #expect(recorder.exchanges.map(\.request.method) == ["GET", "GET", "GET"])
            #expect(recorder.exchanges.map(\.status) == [304, 304, 304])
            #expect(try store.collection("b").find("x")?["in"] == "b")
        }
    }
}
