import Foundation
import OfflineStore
import Testing

/// Cancelling the task that runs `flush()` or `sync()` stops it at a safe point with a
/// typed `cancelled` error whose report says what was done: nothing lost, nothing sent
/// twice, the queue consistent. Run on the in-memory backend and the real Kinto.
@Suite(.timeLimit(.minutes(5))) struct CancellationScenarioTests {
    /// A store with edits in two collections, so a flush sends two batches (one per collection).
    static func storeWithTwoBatches(_ server: any SyncHarness) async throws -> (ObjectStore, TemporaryStore) {
        let (store, dir) = try server.makeStore()
        try store.register(CollectionDescriptor("notes"))
        try await store.collection("todos").create(["id": "a", "n": 1])
        try await store.collection("todos").create(["id": "b", "n": 2])
        try await store.collection("notes").create(["id": "c", "text": "later"])
        return (store, dir)
    }

    @Test(arguments: BackendKind.available)
    func cancelledBeforeSendingSendsNothing(_ kind: BackendKind) async throws {
        let server = try await Harness.make(kind)
        let (store, _dir) = try await Self.storeWithTwoBatches(server)
        let before = server.writeCount
        let flush = Task {
            withUnsafeCurrentTask { $0?.cancel() }      // cancelled before it starts working
            return try await store.flush()
        }
        let error = await #expect(throws: OfflineStoreError.self) { try await flush.value }
        #expect(error?.code == .cancelled)
        #expect(error?.report?.pushed == 0 && error?.report?.pending == 3)
        #expect(server.writeCount == before)
        #expect(try store.queueCount() == 3)
        #expect(try store.queueEntries().allSatisfy { $0.state == .pending })
        #expect(try await store.flush().pushed == 3, "the next flush sends everything")
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func cancelledWhileABatchIsOnTheWireSettlesItAndSendsNoMore(_ kind: BackendKind) async throws {
        let server = try await Harness.make(kind)
        let (store, _dir) = try await Self.storeWithTwoBatches(server)
        let gate = PushGate(server)
        let before = server.writeCount
        let flush = Task { try await store.flush() }
        await gate.entered()                              // the first batch is marked in flight and sent
        flush.cancel()
        gate.release()                                    // its answer comes back after the cancel

        let error = await #expect(throws: OfflineStoreError.self) { try await flush.value }
        #expect(error?.code == .cancelled)
        #expect(error?.report?.pushed == 2, "the batch on the wire was settled")
        #expect(error?.report?.pending == 1)
        #expect(server.writeCount - before == 2, "nothing after the cancel was sent")
        #expect(try await server.serverGet("todos", "b")?["n"] == 2)
        #expect(try await server.serverGet("notes", "c") == nil)
        #expect(try store.collection("todos").object("a")?.state == .synced)
        #expect(try store.queueEntries().map(\.objectID) == ["c"])
        #expect(try store.queueEntries().allSatisfy { $0.state == .pending && $0.attempts == 0 })

        #expect(try await store.flush().pushed == 1)
        #expect(server.writeCount - before == 3, "each edit sent once")
        _ = _dir
    }

    @Test(arguments: BackendKind.available)
    func aCancelledSyncStopsAfterTheFlushStepItWasIn(_ kind: BackendKind) async throws {
        let server = try await Harness.make(kind)
        let (store, _dir) = try await Self.storeWithTwoBatches(server)
        try await server.serverPut("todos", "from-server", ["n": 9])
        let gate = PushGate(server)
        let sync = Task { try await store.sync() }
        await gate.entered()
        sync.cancel()
        gate.release()
        let error = await #expect(throws: OfflineStoreError.self) { try await sync.value }
        #expect(error?.code == .cancelled && error?.report?.pushed == 2 && error?.report?.pulled == 0)
        #expect(try store.collection("todos").find("from-server") == nil, "the refresh step did not run")
        #expect(try store.lastSync() == nil)
        let report = try await store.sync()
        #expect(report.pushed == 1 && report.pending == 0)
        #expect(try store.collection("todos").find("from-server")?["n"] == 9)
        _ = _dir
    }

    /// Holds the next push (its batch already marked in flight) until released, and says
    /// when it is held.
    struct PushGate: Sendable {
        private let enteredSignal: AsyncStream<Void>
        private let releaseSignal: AsyncStream<Void>.Continuation

        init(_ server: any SyncHarness) {
            let (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
            let (release, releaseContinuation) = AsyncStream<Void>.makeStream()
            enteredSignal = entered
            releaseSignal = releaseContinuation
            server.beforeNextPush {
                enteredContinuation.yield()
                var waiting = release.makeAsyncIterator()
                _ = await waiting.next()
            }
        }

        /// Returns once the push is held.
        func entered() async {
            var iterator = enteredSignal.makeAsyncIterator()
            _ = await iterator.next()
        }

        /// Lets the push go on.
        func release() { releaseSignal.finish() }
    }
}

extension CancellationScenarioTests {
    @Test(arguments: BackendKind.available)
    func aRefreshCancelledDuringAPagedPullKeepsWhatItAppliedAndResumes(_ kind: BackendKind) async throws {
        let (server, store, _dir) = try await Harness.store(kind, pageSize: 3)
        for i in 0..<10 { try await server.serverPut("todos", "r\(i)", ["n": .int(Int64(i))]) }
        let (entered, enteredSignal) = AsyncStream<Void>.makeStream()
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()
        server.beforeSecondPage {
            enteredSignal.yield()
            var waiting = release.makeAsyncIterator()
            _ = await waiting.next()
        }
        let refresh = Task { try await store.refresh() }
        var second = entered.makeAsyncIterator()
        _ = await second.next()                           // the first page is in, the second asked for
        refresh.cancel()
        releaseSignal.finish()

        let error = await #expect(throws: OfflineStoreError.self) { try await refresh.value }
        #expect(error?.code == .cancelled)
        let pulled = try #require(error?.report?.pulled)
        #expect(pulled >= 3 && pulled < 10 && pulled % 3 == 0, "whole pages only: \(pulled)")
        #expect(try store.collection("todos").count() == pulled, "what was applied stays applied")

        let rest = try await store.refresh()
        #expect(pulled + rest.pulled >= 10)
        let all = try store.collection("todos").findAll()
        #expect(all.count == 10 && Set(all.compactMap { $0["n"]?.intValue }) == Set(0..<10))
        _ = _dir
    }
}
