import Foundation
import OfflineStore
import OfflineStoreTesting
import Testing

/// `SyncEvent.readAccessLost` is told once per loss (Docs/Auth.md, "Sharing and lost access"):
/// the refreshes still refused after it only name the collection, and once a pull of it
/// succeeds again, the next loss is told again. Both policies.
@Suite("Read access loss told once", .timeLimit(.minutes(5)))
struct ReadAccessToldOnceTests {
    @Test(arguments: [ReadAccessLossPolicy.keep, .purge])
    func aLossIsToldOnceAndAgainAfterAccessReturned(policy: ReadAccessLossPolicy) async throws {
        let backend = InMemoryBackend()
        backend.put(collection: "shared", id: "a", record: ["t": "theirs"])
        var shared = CollectionDescriptor("shared")
        shared.readAccessLoss = policy
        try await withTemporaryStore(configuration: .deferred, backend: backend, collections: [shared]) { store in
            #expect(try await store.refresh().pulled == 1)

            func refusedRefresh() async throws -> (refused: [String], told: [String]) {
                // Every pull of the refresh is refused, however often the engine asks again
                // (a first page that fails is asked again once the collection is prepared): how
                // many pulls a refresh makes is not what this test is about.
                backend.inject(.status(403).only(.pull), times: .max)
                defer { backend.clearFaults() }
                let events = store.syncEvents()
                let report = try await store.refresh()
                return (report.refused.map(\.collection), try await readAccessLosses(in: events).losses.map(\.collection))
            }
            let first = try await refusedRefresh()
            #expect(first.refused == ["shared"] && first.told == ["shared"])
            let second = try await refusedRefresh()
            #expect(second.refused == ["shared"] && second.told.isEmpty)

            // Readable again: a pull succeeds, and the next loss is told again.
            let back = try await store.refresh()
            #expect(back.refused.isEmpty)
            #expect(try store.collection("shared").find("a")?["t"] == "theirs")
            let third = try await refusedRefresh()
            #expect(third.refused == ["shared"] && third.told == ["shared"])
        }
    }
}
