import Foundation
import OfflineStore
import OfflineStoreTesting
import Testing

/// The sync event stream: order and counts (SPEC §10), on both backends.
@Suite(.timeLimit(.minutes(5))) struct SyncEventTests {
    /// Takes events until (and including) the run's `finished` or `error`.
    static func collect(_ events: AsyncStream<SyncEvent>) async -> [SyncEvent] {
        var collected: [SyncEvent] = []
        for await event in events {
            collected.append(event)
            if case .finished = event { break }
            if case .error = event { break }
        }
        return collected
    }

    @Test(arguments: BackendKind.available)
    func aMultiPageRefreshReportsProgressInOrderWithCounts(_ kind: BackendKind) async throws {
        let server = try await Harness.make(kind, pageSize: 2)
        for i in 1...5 { try await server.serverPut("todos", "r\(i)", ["n": .int(Int64(i))]) }
        let (store, dir) = try server.makeStore()
        defer { _ = dir }
        let events = store.syncEvents()
        let report = try await store.refresh()
        let seen = await Self.collect(events)

        #expect(seen.first == .started(.refresh))
        #expect(seen.last == .finished(.refresh, report))
        let progress = seen.compactMap { if case .progress(let p) = $0 { p } else { nil } }
        #expect(progress.map(\.processed) == [2, 4, 5])
        #expect(progress.map(\.cumulative) == [2, 4, 5])
        #expect(progress.allSatisfy { $0.collection == "todos" && $0.direction == .pull })
        // Kinto announces Total-Records; the in-memory server does not by default.
        // No total: Kinto's counting HEAD is off by default (KintoBackend.Configuration.countsRecords).
        #expect(progress.map(\.total) == Array(repeating: nil, count: 3))
        #expect(report.pulled == 5)
    }

    @Test(arguments: BackendKind.available)
    func aSyncReportsPushProgressConflictsAndTheReport(_ kind: BackendKind) async throws {
        let (server, store, dir) = try await Harness.store(kind)
        defer { _ = dir }
        let todos = store.collection("todos")
        try await todos.create(["id": "a", "title": "A"])
        try await store.flush()
        for id in ["b", "c", "d"] { try await todos.create(["id": .string(id), "title": "new"]) }
        try await server.serverPut("todos", "a", ["title": "server"])
        try await todos.patch("a", ["title": "local"])

        let events = store.syncEvents()
        let report = try await store.sync()
        let seen = await Self.collect(events)
        #expect(seen.first == .started(.sync))
        #expect(seen.last == .finished(.sync, report))
        let conflicts = seen.compactMap { if case .conflict(let c) = $0 { c } else { nil } }
        #expect(conflicts.map(\.id) == ["a"])
        #expect(conflicts.first?.server?["title"] == "server")
        let push = seen.compactMap { if case .progress(let p) = $0, p.direction == .push { p } else { nil } }
        #expect(push.last?.processed == 4)
        #expect(push.first?.total == 4)
        #expect(report.conflicts == 1)
    }

    @Test func aStoppedRunEndsWithAnErrorEvent() async throws {
        let backend = InMemoryBackend()
        try await withTemporaryStore(configuration: .with { $0.writeMode = .deferred }, backend: backend,
                                     collections: [CollectionDescriptor("todos")]) { store in
            try await store.collection("todos").create(["id": "a", "title": "x"])
            backend.inject(.status(401).only(.push))
            let events = store.syncEvents()
            await expectStoreError(.unauthorized) { try await store.flush() }
            let seen = await Self.collect(events)
            #expect(seen.count == 2)
            #expect(seen.first == .started(.flush))
            guard case .error(.flush, let error) = seen.last else { Issue.record("no error event: \(seen)"); return }
            #expect(error.code == .unauthorized)
        }
    }

    @Test func aRejectedEntryIsAnnounced() async throws {
        let backend = InMemoryBackend()
        try await withTemporaryStore(configuration: .with { $0.writeMode = .deferred }, backend: backend,
                                     collections: [CollectionDescriptor("todos")]) { store in
            try await store.collection("todos").create(["id": "a", "title": "x"])
            backend.inject(.rejectOperation(id: "a", status: 422, body: #"{"title":["too short"]}"#))
            let events = store.syncEvents()
            try await store.flush()
            let seen = await Self.collect(events)
            let failed = seen.compactMap { if case .failedEntry(let e) = $0 { e } else { nil } }
            #expect(failed.map(\.objectID) == ["a"])
            #expect(failed.first?.validationMessages["title"] == ["too short"])
        }
    }
}
