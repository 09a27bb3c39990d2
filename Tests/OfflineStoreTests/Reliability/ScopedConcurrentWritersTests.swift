import Foundation
import OfflineStore
import Testing

/// A scoped collection refreshed again and again while three other clients write (single
/// writes, batches, colliding timestamps) ends holding exactly the server's records that
/// match the scope: 0 missed, 0 extra — the cursor safety of a plain refresh holds for a
/// scoped one. `RELIABILITY_SCOPE_ROUNDS` sets the rounds (2 by default).
@Suite("Concurrent writers while a scoped collection refreshes (real Kinto)", .serialized)
struct ScopedConcurrentWritersTests {
    @Test(.liveServer) func aScopedRefreshMissesNothingUnderConcurrentWriters() async throws {
        let server = try KintoServer.workloadURL()
        let rounds = TestEnvironment.number("RELIABILITY_SCOPE_ROUNDS", default: 2)
        let seed = TestEnvironment.reliabilitySeed
        var random = ObjectStoreCrashTests.SeededGenerator(seed: seed &+ 11)
        var tally = ReliabilityTally(scenario: "concurrent writers + scoped refresh (memory)")
        let scope = ServerQuery([.isIn("by", ["single", "batch"])])

        for round in 0..<rounds {
            let bucket = KintoServer.uniqueName("scope")
            let writers = ConcurrentWriters(server: server, bucket: bucket, collection: "shared")
            let pages = AnswerRecordingTransport()
            let backend = KintoServer.backend(server: server, bucket: bucket, timeout: .seconds(30), pageSize: 7, transport: pages)
            var shared = CollectionDescriptor("shared")
            shared.syncScope = scope
            try await withTemporaryStore(backend: backend, collections: [shared]) { store in
                try await backend.prepare(collection: "shared")
                let seeds = (0..<3).map { _ in random.next() }
                let (written, past) = try await withThrowingTaskGroup(of: (Int, ConcurrentWriters.PastStamps).self) { group in
                    for kind in 0..<3 {
                        group.addTask {
                            let r = try await writers.run(kind: kind, rounds: 12, seed: seeds[kind])
                            return (r.accepted, r.past)
                        }
                    }
                    for _ in 0..<10 { _ = try await store.refresh() }
                    var total = 0, stamps = ConcurrentWriters.PastStamps()
                    for try await (accepted, past) in group { total += accepted; stamps.formUnion(past) }
                    return (total, stamps)
                }
                for _ in 0..<2 { _ = try await store.refresh() }
                let remote = try await writers.all().filter { scope.matches($0.value) }
                var local: [String: JSONValue] = [:]
                for value in try store.collection("shared").findAll() { local[value["id"]?.stringValue ?? "?"] = value }
                // A record last changed at a past client timestamp that came late is outside what a
                // pull promises (ConcurrentWriters.run). One that shares a timestamp with a page's
                // end is not: every page of these pulls (all have `_since`) starts at the last
                // timestamp of the page before (KintoPageBoundary), so nothing there is excused.
                let hidden = try await writers.ids(lastChangedAt: past.late)
                if !hidden.isEmpty { print("round \(round): \(hidden.sorted()) last changed at a past client timestamp, not checked") }
                let differ = Set(remote.keys).union(local.keys).filter { remote[$0] != local[$0] && !hidden.contains($0) }
                if !differ.isEmpty {
                    for line in pages.listing { print("PULL \(line)") }
                    let all = try await writers.history()
                    for id in differ.sorted() { print("SERVER \(id): \(all[id] ?? "?")") }
                }
                tally.runs += 1
                tally.injected += written
                tally.editsChecked += remote.count
                tally.missed += differ.count
                #expect(differ.isEmpty, """
                    round \(round) (seed \(seed)): local and server differ for \(differ.sorted()):
                    \(differ.sorted().map { "\($0): local \(local[$0].map { $0.serialized() } ?? "absent"), server \(remote[$0].map { $0.serialized() } ?? "absent")" }.joined(separator: "\n"))
                    """)
                #expect(!remote.isEmpty && local.values.allSatisfy(scope.matches))
            }
        }
        print(tally)
        #expect(tally.isClean, "\(tally)")
    }
}
