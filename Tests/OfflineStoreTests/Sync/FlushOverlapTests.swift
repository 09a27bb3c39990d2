import Foundation
import GRDB
import OfflineStoreTesting
import Testing
@testable import OfflineStore

/// The flush sends a batch while it writes the answers of the batch before, only when those
/// answers cannot change the next batch (``FlushOverlapRule``): checked by what the store
/// holds when the next batch reaches the server, and by what a failed write leaves behind.
@Suite("Flush overlap", .timeLimit(.minutes(5)))
struct FlushOverlapTests {
    /// Delegates to an in-memory server; runs a hook when a push arrives, and can answer a
    /// create with another id than the one sent (`renaming`), as a server assigning ids does.
    final class AnswerHookBackend: Backend {
        let base: InMemoryBackend
        let assignsIDs: Bool
        /// Reference fields by collection (``BackendTraits/associations``).
        let associations: [String: [String: String]]
        /// Whether pushes claim to report their request written (``ReportsRequestWritten``);
        /// the hook then fires ``RequestWritten/current`` or lets the push's end fire it.
        let reportsWritten: Bool
        private let state = Locked<(hook: (@Sendable ([PushOperation]) async -> Void)?, renaming: [String: String], pushes: [[String]])>(
            (nil, [:], []))
        init(base: InMemoryBackend, assignsIDs: Bool = false, associations: [String: [String: String]] = [:],
             reportsWritten: Bool = false) {
            self.base = base
            self.assignsIDs = assignsIDs
            self.associations = associations
            self.reportsWritten = reportsWritten
        }
        /// Runs `hook` with every push's operations before the server sees them.
        func onPush(_ hook: @escaping @Sendable ([PushOperation]) async -> Void) { state.withLock { $0.hook = hook } }
        /// Answers the create of each key with the value's id.
        func rename(_ ids: [String: String]) { state.withLock { $0.renaming = ids } }
        /// The ids each push sent, in order.
        var pushes: [[String]] { state.withLock { $0.pushes } }

        func validate(id: String, in collection: String) throws { try base.validate(id: id, in: collection) }
        func capabilities() async throws -> BackendCapabilities { try await base.capabilities() }
        func prepare(collection: String) async throws { try await base.prepare(collection: collection) }
        func push(_ operations: [PushOperation], collection: String) async throws -> [PushOutcome] {
            let (hook, renaming) = state.withLock { s in
                s.pushes.append(operations.map(\.id))
                return (s.hook, s.renaming)
            }
            await hook?(operations)
            return try await base.push(operations, collection: collection).enumerated().map { i, outcome in
                guard case .applied(let record?, let version) = outcome, operations[i].kind == .create,
                      let id = renaming[operations[i].id], case .object(var fields) = record else { return outcome }
                fields["id"] = .string(id)
                return .applied(record: .object(fields), version: version)
            }
        }
        func pull(_ request: PullRequest, delivering deliver: ([RemoteChange]) async throws -> Void) async throws -> PullPage {
            try await base.pull(request)
        }
        func ping() async throws { try await base.ping() }
        func fetch(collection: String, id: String) async throws -> RemoteChange? { try await base.fetch(collection: collection, id: id) }
        func traits(of collection: String) -> BackendTraits {
            var traits = base.traits(of: collection)
            traits.assignsIDs = assignsIDs
            traits.associations = associations[collection] ?? [:]
            return traits
        }
    }

    /// Makes the store's writes of `id` that `when` (an SQL condition on `NEW`) matches fail,
    /// through a trigger set from another connection to the store's file: the answers that
    /// would write them cannot be written. Returns that connection, to drop it with ``allow(_:on:)``.
    static func refuse(_ id: String, when condition: String, in temporary: TemporaryStore) async throws -> DatabaseQueue {
        let other = try DatabaseQueue(path: temporary.path("store.sqlite"))
        try await other.write { db in
            try db.execute(sql: """
                CREATE TRIGGER refuse_\(id.filter(\.isLetter)) BEFORE UPDATE ON objects WHEN \(condition)
                BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                """)
        }
        return other
    }

    /// Drops the trigger ``refuse(_:when:in:)`` set for `id`.
    static func allow(_ id: String, on other: DatabaseQueue) async throws {
        try await other.write { db in try db.execute(sql: "DROP TRIGGER refuse_\(id.filter(\.isLetter))") }
    }

    static func todos(_ ids: [String], in store: ObjectStore) async throws {
        for id in ids { try await store.collection("todos").create(["id": .string(id), "title": .string(id)]) }
    }

    /// The store's state of `id` when the hook ran, by id ("gone" when the store has no such object).
    static func states(_ ids: [String], in store: ObjectStore) -> [String: String] {
        var seen: [String: String] = [:]
        for id in ids { seen[id] = (try? store.collection("todos").object(id))??.state.rawValue ?? "gone" }
        return seen
    }

    @Test func aCreateAnsweredWithAnotherIDIsNotOverlapped() async throws {
        let server = InMemoryBackend(maxBatchSize: 2)
        let backend = AnswerHookBackend(base: server)
        try await withTemporaryStore(configuration: .deferred, backend: backend, collections: [CollectionDescriptor("todos")]) { store in
            try await Self.todos(["a", "b", "c", "d"], in: store)
            // The client owns the ids here: an answer naming another object cannot be written.
            backend.rename(["a": "elsewhere"])
            let error = await #expect(throws: OfflineStoreError.self) { try await store.flush() }
            #expect(error?.code == .badResponse)
            #expect(backend.pushes == [["a", "b"]], "the next batch waited for answers that could not be written")
        }
    }

    /// The next batch goes out before the first one's answers are written: when writing them
    /// fails (a trigger of another connection refuses them), the server has seen both batches,
    /// the second one's answers are written all the same, and the next run settles the first
    /// one's entries without a duplicate or a conflict.
    @Test func theOverlappedBatchIsSettledWhenTheAnswersBeforeItCannotBeWritten() async throws {
        let server = InMemoryBackend(maxBatchSize: 2)
        let backend = AnswerHookBackend(base: server)
        let temporary = try TemporaryStore(configuration: .deferred, backend: backend, collections: [CollectionDescriptor("todos")])
        let store = temporary.store
        try await Self.todos(["a", "b", "c", "d"], in: store)
        let other = try await Self.refuse("a", when: "NEW.id = 'a' AND NEW.state = 'synced'", in: temporary)
        let error = await #expect(throws: OfflineStoreError.self) { try await store.flush() }
        #expect(error?.code == .storage)
        #expect(backend.pushes == [["a", "b"], ["c", "d"]], "the second batch went out before the first one's answers were written")
        #expect(Self.states(["a", "b", "c", "d"], in: store)
                == ["a": SyncState.created.rawValue, "b": SyncState.created.rawValue,
                    "c": SyncState.synced.rawValue, "d": SyncState.synced.rawValue])
        #expect(try store.queueEntries(id: nil).map(\.objectID).sorted() == ["a", "b"])

        try await Self.allow("a", on: other)
        let report = try await store.flush()
        #expect(report.pushed == 2 && report.failed == 0 && report.conflicts == 0)
        #expect(try store.queueEntries(id: nil).isEmpty)
        #expect(server.allRecords(collection: "todos").keys.sorted() == ["a", "b", "c", "d"])
        #expect(Self.states(["a", "b", "c", "d"], in: store).values.allSatisfy { $0 == SyncState.synced.rawValue })
    }

    /// A later entry of an object on the wire goes before the entries behind it, as without
    /// the overlap: x was sent once (its answer lost) and edited since, so the queue holds
    /// x's create, x's edit, then z; batches of one.
    @Test func theQueueOrderIsKeptAcrossObjects() async throws {
        let server = InMemoryBackend(maxBatchSize: 1)
        let backend = AnswerHookBackend(base: server)
        try await withTemporaryStore(configuration: .deferred, backend: backend, collections: [CollectionDescriptor("todos")]) { store in
            try await Self.todos(["x"], in: store)
            server.inject(.appliedButResponseLost)
            await expectStoreError(.timeout) { try await store.flush() }
            try await store.collection("todos").patch("x", ["title": "x, edited"])
            try await Self.todos(["z"], in: store)
            #expect(try store.queueEntries(id: nil).map(\.objectID) == ["x", "x", "z"])
            let before = backend.pushes.count
            let report = try await store.flush()
            #expect(report.failed == 0 && report.conflicts == 0)
            #expect(Array(backend.pushes.dropFirst(before)) == [["x"], ["x"], ["z"]])
            #expect(server.serverRecord(collection: "todos", id: "x")?.record["title"] == "x, edited")
        }
    }

    /// An entry that references a create on the wire is not held back for it: the server has
    /// applied the create. Shown without a race as above: the list's answer cannot be written,
    /// and the server has seen the todo that references it all the same.
    @Test func aReferenceToACreateOnTheWireFollowsIt() async throws {
        let server = InMemoryBackend(maxBatchSize: 10)
        let backend = AnswerHookBackend(base: server, associations: ["todos": ["listID": "lists"]])
        let temporary = try TemporaryStore(configuration: .deferred, backend: backend,
                                           collections: [CollectionDescriptor("todos"), CollectionDescriptor("lists")])
        let store = temporary.store
        // A first todo, so that the collection is prepared before the list's batch goes out.
        try await Self.todos(["t0"], in: store)
        try await store.collection("lists").create(["id": "l", "title": "groceries"])
        try await store.collection("todos").create(["id": "t", "title": "milk", "listID": "l"])
        let other = try await Self.refuse("l", when: "NEW.id = 'l' AND NEW.state = 'synced'", in: temporary)
        await expectStoreError(.storage) { try await store.flush() }
        #expect(backend.pushes == [["t0"], ["l"], ["t"]], "the todo went out before the list's answer was written")
        #expect(server.serverRecord(collection: "todos", id: "t")?.record["listID"] == "l")
        #expect(Self.states(["t"], in: store) == ["t": SyncState.synced.rawValue])

        try await Self.allow("l", on: other)
        let report = try await store.flush()
        #expect(report.failed == 0 && report.conflicts == 0 && report.heldBack == 0)
        #expect(try store.queueEntries(id: nil).isEmpty)
        #expect(server.allRecords(collection: "lists").keys.sorted() == ["l"])
    }

    /// A flush cancelled while an overlapped batch is on the wire settles it (its answer is
    /// awaited and applied) and sends nothing more.
    @Test func aCancelWhileAnOverlappedBatchIsOnTheWireSettlesItAndStops() async throws {
        let server = InMemoryBackend(maxBatchSize: 2)
        let backend = AnswerHookBackend(base: server)
        try await withTemporaryStore(configuration: .deferred, backend: backend, collections: [CollectionDescriptor("todos")]) { store in
            try await Self.todos(["a", "b", "c", "d", "e", "f"], in: store)
            let flushing = Locked<Task<SyncReport, any Error>?>(nil)
            backend.onPush { operations in
                if operations.map(\.id) == ["c", "d"] { flushing.withLock { $0?.cancel() } }
            }
            // The flush starts once the hook can reach its task.
            let (start, go) = AsyncStream<Void>.makeStream()
            let task = Task {
                for await _ in start { break }
                return try await store.flush()
            }
            flushing.withLock { $0 = task }
            go.yield()
            await expectStoreError(.cancelled) { try await task.value }
            #expect(backend.pushes == [["a", "b"], ["c", "d"]])
            #expect(Self.states(["a", "b", "c", "d", "e", "f"], in: store)
                    == ["a": "synced", "b": "synced", "c": "synced", "d": "synced", "e": "created", "f": "created"])
            #expect(try store.queueEntries(id: nil).map(\.objectID) == ["e", "f"])
        }
    }

    /// Flushes and returns the push progress events of that run, in order.
    static func flushCollectingPushProgress(_ store: ObjectStore) async throws -> [SyncProgress] {
        let events = store.syncEvents()
        try await store.flush()
        var push: [SyncProgress] = []
        for await event in events {
            if case .progress(let p) = event, p.direction == .push { push.append(p) }
            if case .finished = event { break }
        }
        return push
    }

    /// The push progress total counts the batch already on the wire when the first answers are counted.
    @Test func pushProgressCountsTheOverlappedBatch() async throws {
        let server = InMemoryBackend(maxBatchSize: 50)
        try await withTemporaryStore(configuration: .deferred, backend: server, collections: [CollectionDescriptor("todos")]) { store in
            try await store.transaction { tx in
                for n in 0..<150 { try tx.create(["id": .string("t\(n)"), "title": "t"], in: "todos") }
            }
            let push = try await Self.flushCollectingPushProgress(store)
            #expect(push.map(\.processed) == [50, 100, 150])
            #expect(push.map(\.total) == [150, 150, 150])
        }
    }

    /// A create that gives way to a later delete while its batch is staged is counted as
    /// settled then, before any answer: the total it fixes counts the batches in flight.
    @Test func pushProgressCountsTheBatchesInFlightWhenAStagedEntryGivesWay() async throws {
        let server = InMemoryBackend(maxBatchSize: 50)
        try await withTemporaryStore(configuration: .deferred, backend: server, collections: [CollectionDescriptor("todos")]) { store in
            try await store.transaction { tx in
                for n in 0..<60 { try tx.create(["id": .string("t\(n)"), "title": "t"], in: "todos") }
            }
            // Sent once, rejected and retried by the app: the delete cannot fold into the create,
            // and the create, with nothing kept to resend, gives way to it when it is marked.
            try store.local.write("sending t55 once") { db in
                let entry = try #require(try QueueTable.entries(db, collection: "todos", id: "t55").first)
                _ = try InFlight.mark([entry], watchesLateDeliveries: false, in: db)
                try QueueTable.reject(entry.seq, status: 422, body: nil, message: "rejected", in: db)
                try QueueTable.retry(entry.seq, in: db)
            }
            try await store.collection("todos").destroy("t55")
            let push = try await Self.flushCollectingPushProgress(store)
            #expect(push.last?.processed == push.last?.total)
            #expect(push.allSatisfy { $0.processed <= ($0.total ?? 0) }, "\(push.map { ($0.processed, $0.total ?? -1) })")
        }
    }

    /// Syncs a, lets another client change it, edits it here and queues creates of b, c
    /// and d: the first batch of two meets a conflict on a.
    static func queueAConflictOnA(_ store: ObjectStore, _ server: InMemoryBackend) async throws {
        try await Self.todos(["a"], in: store)
        try await store.flush()
        server.put(collection: "todos", id: "a", record: ["id": "a", "title": "theirs"])
        try await store.collection("todos").patch("a", ["title": "mine"])
        try await Self.todos(["b", "c", "d"], in: store)
    }

    @Test func aConflictIsWrittenBeforeTheNextBatchGoesOut() async throws {
        let server = InMemoryBackend(maxBatchSize: 2)
        let backend = AnswerHookBackend(base: server)
        try await withTemporaryStore(configuration: .deferred, backend: backend, collections: [CollectionDescriptor("todos")]) { store in
            try await Self.queueAConflictOnA(store, server)
            let seen = Locked<[String: String]>([:])
            backend.onPush { operations in
                if operations.map(\.id) == ["c", "d"] { seen.withLock { $0 = Self.states(["a", "b"], in: store) } }
            }
            let report = try await store.flush()
            #expect(report.conflicts == 1)
            #expect(seen.withLock { $0 } == ["a": SyncState.conflicted.rawValue, "b": SyncState.synced.rawValue])
        }
    }

    /// The same, shown without a race: the batch with the conflict also holds an answer that
    /// cannot be written, so the run stops there; had the next batch gone out early, the
    /// server would have seen it. [c, d], marked in flight meanwhile (``StagedBatch``), returns
    /// to the queue as it was: pending, never counted as sent.
    @Test func aBatchWithAConflictIsNotOverlappedAndTheStagedBatchIsWithdrawn() async throws {
        let server = InMemoryBackend(maxBatchSize: 2)
        let backend = AnswerHookBackend(base: server)
        try await withTemporaryStore(configuration: .deferred, backend: backend, collections: [CollectionDescriptor("todos")]) { store in
            try await Self.queueAConflictOnA(store, server)
            backend.rename(["b": "elsewhere"])
            let before = backend.pushes.count
            await expectStoreError(.badResponse) { try await store.flush() }
            #expect(Array(backend.pushes.dropFirst(before)) == [["a", "b"]])
            let waiting = try store.queueEntries(id: nil).filter { ["c", "d"].contains($0.objectID) }
            #expect(waiting.map(\.objectID) == ["c", "d"])
            #expect(waiting.allSatisfy { $0.state == .pending && $0.attempts == 0 })
        }
    }

    /// The same when the batch on the wire gets no answer (the connection is lost): the
    /// staged batch is withdrawn, and only the batch that went out waits as possibly applied.
    @Test func aStagedBatchIsWithdrawnWhenTheBatchOnTheWireGetsNoAnswer() async throws {
        let server = InMemoryBackend(maxBatchSize: 2)
        try await withTemporaryStore(configuration: .deferred, backend: server, collections: [CollectionDescriptor("todos")]) { store in
            try await Self.todos(["a", "b", "c", "d"], in: store)
            server.inject(.offline)
            await expectStoreError(.offline) { try await store.flush() }
            let entries = try store.queueEntries(id: nil)
            #expect(entries.map(\.objectID) == ["a", "b", "c", "d"])
            #expect(entries.map(\.attempts) == [1, 1, 0, 0])
            #expect(entries.allSatisfy { $0.state == .pending })
        }
    }

    /// A withdrawn batch goes out later as a first send: the server is not told it may have
    /// seen these operations before (a resend is recognised by reading the entity, which a
    /// first send never needs).
    @Test func aWithdrawnBatchIsSentLaterAsAFirstSend() async throws {
        let server = InMemoryBackend(maxBatchSize: 2)
        let backend = AnswerHookBackend(base: server)
        try await withTemporaryStore(configuration: .deferred, backend: backend, collections: [CollectionDescriptor("todos")]) { store in
            try await Self.queueAConflictOnA(store, server)
            let sends = Locked<[String: (attempt: Int, isResend: Bool)]>([:])
            backend.onPush { operations in
                sends.withLock { for op in operations { $0[op.id] = (op.attempt, op.isResend) } }
            }
            let report = try await store.flush()
            #expect(report.conflicts == 1 && report.pushed == 3)
            let seen = sends.withLock { $0 }
            #expect(seen["c"]?.attempt == 1 && seen["d"]?.attempt == 1)
            #expect(seen["c"]?.isResend == false && seen["d"]?.isResend == false)
        }
    }

    @Test func aServerAssignedIDIsWrittenBeforeTheNextBatchGoesOut() async throws {
        let server = InMemoryBackend(maxBatchSize: 2)
        let backend = AnswerHookBackend(base: server, assignsIDs: true)
        try await withTemporaryStore(configuration: .deferred, backend: backend, collections: [CollectionDescriptor("todos")]) { store in
            try await Self.todos(["a", "b", "c", "d"], in: store)
            backend.rename(["a": "srv-a"])
            let seen = Locked<[String: String]>([:])
            backend.onPush { operations in
                if operations.map(\.id) == ["c", "d"] { seen.withLock { $0 = Self.states(["a", "srv-a"], in: store) } }
            }
            let report = try await store.flush()
            #expect(report.pushed == 4)
            #expect(seen.withLock { $0 } == ["a": "gone", "srv-a": SyncState.synced.rawValue])
        }
    }

    /// The same, shown without a race: the re-keying cannot be written, so the run stops there;
    /// had the next batch gone out early, the server would have seen it.
    @Test func aBatchOfServerAssignedIDsIsNotOverlapped() async throws {
        let server = InMemoryBackend(maxBatchSize: 2)
        let backend = AnswerHookBackend(base: server, assignsIDs: true)
        let temporary = try TemporaryStore(configuration: .deferred, backend: backend, collections: [CollectionDescriptor("todos")])
        let store = temporary.store
        try await Self.todos(["a", "b", "c", "d"], in: store)
        backend.rename(["a": "srv-a"])
        _ = try await Self.refuse("srva", when: "NEW.id = 'srv-a'", in: temporary)
        await expectStoreError(.storage) { try await store.flush() }
        #expect(backend.pushes == [["a", "b"]])
    }
}
