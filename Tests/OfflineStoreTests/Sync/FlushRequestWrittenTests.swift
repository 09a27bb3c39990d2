import Foundation
import OfflineStoreTesting
import Testing
@testable import OfflineStore

extension FlushOverlapTests.AnswerHookBackend: ReportsRequestWritten {
    var reportsRequestWritten: Bool { reportsWritten }
}

/// The flush writes a batch's answers once the next batch's request went out
/// (``RequestWritten``), for a backend that reports it, and never waits longer than that
/// request: the hook of a backend that claims to report stands in for the transport.
@Suite("Flush waits for the next request to go out", .timeLimit(.minutes(1)))
struct FlushRequestWrittenTests {
    typealias Hooked = FlushOverlapTests.AnswerHookBackend

    /// Deferred writes, and a flush that waits for a request to go out as long as it takes.
    static func patient(_ patience: Duration = .seconds(3600)) -> ObjectStore.Configuration {
        .with {
            $0.writeMode = .deferred
            $0.requestWrittenPatience = patience
        }
    }

    /// While c and d's push has not said its request went out, the flush holds a and b's
    /// answers (it waits on the signal, and they are not written); once it says so, they are
    /// written before its answer.
    @Test func theAnswersBeforeARequestAreWrittenOnceItWentOut() async throws {
        let server = InMemoryBackend(maxBatchSize: 2)
        let backend = Hooked(base: server, reportsWritten: true)
        try await withTemporaryStore(configuration: Self.patient(), backend: backend, collections: [CollectionDescriptor("todos")]) { store in
            try await FlushOverlapTests.todos(["a", "b", "c", "d"], in: store)
            let seen = Locked<(parked: Bool, beforeWritten: [String: String], afterWritten: [String: String])?>(nil)
            // Subscribed now, before the flush: the first batch's answers are written when its
            // progress is reported. One stream for the race below, one for after it.
            let racing = store.syncEvents(), following = store.syncEvents()
            backend.onPush { operations in
                guard operations.map(\.id) == ["c", "d"], let signal = RequestWritten.current else { return }
                // Whichever comes first: the flush parks on the signal, or it writes a and b's
                // answers without waiting (then their progress is reported).
                let (parked, before) = await withTaskGroup(of: Bool.self) { group in
                    group.addTask { await signal.untilAwaited(); return true }
                    group.addTask { await Self.firstBatchAnswered(racing); return false }
                    let parked = await group.next() ?? false
                    let before = FlushOverlapTests.states(["a", "b"], in: store)
                    signal.fire()
                    group.cancelAll()
                    return (parked, before)
                }
                await Self.firstBatchAnswered(following)
                seen.withLock { $0 = (parked, before, FlushOverlapTests.states(["a", "b"], in: store)) }
            }
            let report = try await store.flush()
            #expect(report.pushed == 4 && report.failed == 0)
            let created = SyncState.created.rawValue, synced = SyncState.synced.rawValue
            let observed = try #require(seen.withLock { $0 })
            #expect(observed.parked, "the flush waited for c and d's request before writing a and b's answers")
            #expect(observed.beforeWritten == ["a": created, "b": created], "a and b's answers waited for c and d's request")
            #expect(observed.afterWritten == ["a": synced, "b": synced], "a and b's answers were written before c and d's answer")
        }
    }

    /// Returns once the first batch of two is answered (its push progress), or the task is cancelled.
    static func firstBatchAnswered(_ events: AsyncStream<SyncEvent>) async {
        for await event in events {
            if case .progress(let p) = event, p.direction == .push, p.processed >= 2 { return }
        }
    }

    /// A push that claims to report but never does holds the answers before it back only
    /// until its own answer: the flush ends with every entry answered.
    @Test func aRequestThatNeverReportsHoldsTheAnswersOnlyUntilItsOwnAnswer() async throws {
        let server = InMemoryBackend(maxBatchSize: 2)
        let backend = Hooked(base: server, reportsWritten: true)
        try await withTemporaryStore(configuration: Self.patient(), backend: backend, collections: [CollectionDescriptor("todos")]) { store in
            try await FlushOverlapTests.todos(["a", "b", "c", "d", "e", "f"], in: store)
            let report = try await store.flush()
            #expect(report.pushed == 6 && report.failed == 0)
            #expect(backend.pushes == [["a", "b"], ["c", "d"], ["e", "f"]])
            #expect(try store.queueEntries(id: nil).isEmpty)
            #expect(server.allRecords(collection: "todos").count == 6)
        }
    }

    /// A request that does not go out within the flush's patience (a connection being made,
    /// a stalled network) does not keep the answers before it unwritten: a and b's answers are
    /// written while c and d's push is still waiting to go out.
    @Test func aRequestThatDoesNotGoOutHoldsTheAnswersOnlyForThePatience() async throws {
        let server = InMemoryBackend(maxBatchSize: 2)
        let backend = Hooked(base: server, reportsWritten: true)
        try await withTemporaryStore(configuration: Self.patient(.milliseconds(1)), backend: backend,
                                     collections: [CollectionDescriptor("todos")]) { store in
            try await FlushOverlapTests.todos(["a", "b", "c", "d"], in: store)
            let events = store.syncEvents()
            let seen = Locked<[String: String]>([:])
            backend.onPush { operations in
                guard operations.map(\.id) == ["c", "d"] else { return }
                // Bounded, so that a flush that waits for ever fails this test instead of
                // hanging the run: the answers are written within 1 ms, the bound is 30 s.
                let answered = await withTaskGroup(of: Bool.self) { group in
                    group.addTask { await Self.firstBatchAnswered(events); return true }
                    group.addTask { try? await ContinuousClock().sleep(for: .seconds(30)); return false }
                    let first = await group.next() ?? false
                    group.cancelAll()
                    return first
                }
                if !answered { RequestWritten.current?.fire() }
                seen.withLock { $0 = answered ? FlushOverlapTests.states(["a", "b"], in: store) : [:] }
            }
            let report = try await store.flush()
            #expect(report.pushed == 4 && report.failed == 0)
            #expect(seen.withLock { $0 } == ["a": SyncState.synced.rawValue, "b": SyncState.synced.rawValue])
        }
    }

    /// A backend that cannot report is given no signal; the batches still overlap.
    @Test func aBackendThatCannotReportIsGivenNoSignal() async throws {
        let server = InMemoryBackend(maxBatchSize: 2)
        let backend = Hooked(base: server)
        try await withTemporaryStore(configuration: .deferred, backend: backend, collections: [CollectionDescriptor("todos")]) { store in
            try await FlushOverlapTests.todos(["a", "b", "c", "d"], in: store)
            let signals = Locked<[Bool]>([])
            backend.onPush { _ in
                let given = RequestWritten.current != nil
                signals.withLock { $0.append(given) }
            }
            let report = try await store.flush()
            #expect(report.pushed == 4)
            #expect(signals.withLock { $0 } == [false, false])
        }
    }
}
