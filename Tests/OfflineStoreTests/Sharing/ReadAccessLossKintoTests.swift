import Foundation
import OfflineStore
import Testing

/// Read access withdrawn on the real Kinto (Docs/Auth.md, "Sharing and lost access"): alice
/// owns the bucket and shares two collections with bob, one kept and one purged when bob
/// loses read access; then she grants it again.
@Suite(.liveServer, .timeLimit(.minutes(5))) struct ReadAccessLossKintoTests {
    typealias KintoUser = SharingKintoTests.KintoUser

    @Test func readAccessWithdrawnFollowsEachCollectionsPolicyAndGrantedAgainSyncsAndSends() async throws {
        let base = try KintoServer.url()
        let alice = KintoUser(name: "alice", base: base), bob = KintoUser(name: "bob", base: base)
        let bobID = try await bob.id()
        let bucket = KintoServer.uniqueName("readloss")
        let collections = "/buckets/\(bucket)/collections"
        let shared: JSONValue = ["permissions": ["read": [.string(bobID)], "write": [.string(bobID)]]]
        try await alice.put("/buckets/\(bucket)", ["data": [:]])
        for name in ["kept", "purged"] { try await alice.put("\(collections)/\(name)", shared) }
        try await alice.put("\(collections)/kept/records/k1", ["data": ["t": "alice's k1"]])
        try await alice.put("\(collections)/purged/records/p1", ["data": ["t": "alice's p1"]])
        try await alice.put("\(collections)/purged/records/p2", ["data": ["t": "alice's p2"]])

        var purged = CollectionDescriptor("purged")
        purged.readAccessLoss = .purge
        let backend = try KintoServer.backend(bucket: bucket, auth: .basic(user: "bob", password: "secret"))
        try await withTemporaryStore(configuration: .deferred, backend: backend,
                                     collections: [CollectionDescriptor("kept"), purged]) { store in
            #expect(try await store.sync().pulled == 3)
            // Edits not sent yet when read access goes (a refresh pulls only).
            try await store.collection("kept").patch("k1", ["t": "bob's k1"])
            try await store.collection("purged").patch("p2", ["t": "bob's p2"])

            for name in ["kept", "purged"] { try await alice.put("\(collections)/\(name)", ["permissions": ["read": [], "write": []]]) }
            let events = store.syncEvents()
            let lost = try await store.refresh()
            #expect(Set(lost.refused.map(\.collection)) == ["kept", "purged"])
            #expect(lost.refused.allSatisfy { $0.direction == .pull && $0.status == 403 })
            let (losses, failedEvents) = try await readAccessLosses(in: events)
            #expect(losses.map(\.collection).sorted() == ["kept", "purged"])
            let keptLoss = try #require(losses.first { $0.collection == "kept" })
            #expect(keptLoss.policy == .keep && keptLoss.removedObjects == 0 && keptLoss.failedEntries == 0)
            let purgedLoss = try #require(losses.first { $0.collection == "purged" })
            #expect(purgedLoss.policy == .purge && purgedLoss.removedObjects == 1 && purgedLoss.failedEntries == 1)
            #expect(purgedLoss.status == 403)
            // The entry the purge failed is told like a refused push: a failedEntry event.
            #expect(failedEvents.map(\.objectID) == ["p2"])
            #expect(failedEvents.first?.failure == .forbidden)

            // keep: still readable, the edit still pending.
            #expect(try store.collection("kept").find("k1")?["t"] == "bob's k1")
            #expect(try store.queueEntries(collection: "kept").map(\.state) == [.pending])
            // purge: the synced copy is gone, the edited one stays as the app sees it with a forbidden failed entry.
            #expect(try store.collection("purged").find("p1") == nil)
            #expect(try store.collection("purged").find("p2")?["t"] == "bob's p2")
            let failed = try store.failedEntries(collection: "purged")
            #expect(failed.map(\.objectID) == ["p2"])
            #expect(failed.first?.failure == .forbidden)

            // A second sync still refused: nothing more goes, nothing is lost.
            let again = try await store.refresh()
            #expect(again.refused.count == 2)
            #expect(try store.collection("kept").find("k1")?["t"] == "bob's k1")
            #expect(try store.collection("purged").find("p2")?["t"] == "bob's p2")

            // Granted again: the kept edit goes with the next sync, the purged collection is
            // read from the beginning, and the failed edit goes once retried.
            for name in ["kept", "purged"] { try await alice.put("\(collections)/\(name)", shared) }
            try store.retry("purged", id: "p2")
            let granted = try await store.sync()
            #expect(granted.refused.isEmpty)
            #expect(granted.pushed == 2)
            #expect(try store.collection("purged").find("p1")?["t"] == "alice's p1")
            #expect(try store.queueCount() == 0)
            for (path, text) in [("kept/records/k1", "bob's k1"), ("purged/records/p2", "bob's p2")] {
                let onServer = try JSONValue(parsing: try await alice.send("GET", "\(collections)/\(path)").body)
                #expect(onServer["data"]?["t"] == .string(text))
            }
        }
    }

    /// The `readAccessLost` and `failedEntry` events of one run, until it finishes, within a time limit.
    private func readAccessLosses(in events: AsyncStream<SyncEvent>) async throws -> (losses: [ReadAccessLoss], failed: [QueueEntry]) {
        try await withThrowingTaskGroup(of: ([ReadAccessLoss], [QueueEntry])?.self) { group in
            group.addTask {
                var losses: [ReadAccessLoss] = [], failed: [QueueEntry] = []
                for await event in events {
                    if case .readAccessLost(let loss) = event { losses.append(loss) }
                    if case .failedEntry(let entry) = event { failed.append(entry) }
                    if case .finished = event { return (losses, failed) }
                }
                return (losses, failed)
            }
            group.addTask {
                try await Task.sleep(for: .seconds(10))
                return nil
            }
            defer { group.cancelAll() }
            return try #require(try await group.next() ?? nil)
        }
    }
}
