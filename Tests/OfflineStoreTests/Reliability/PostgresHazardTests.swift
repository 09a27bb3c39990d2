import Foundation
import Testing
import OfflineStore

/// After other clients wrote concurrently (single, batch, colliding timestamps) while the
/// store refreshed again and again and pushed its own edits, the store holds exactly the
/// server's records: 0 missed, 0 extra (SPEC §6, §11).
///
/// The real hazards (late commits, 409s from concurrent transactions) need Kinto on
/// PostgreSQL: `scripts/torture` starts a cluster (`scripts/cluster`: PostgreSQL, two Kinto
/// nodes, haproxy round-robin) and passes one node's URL in `RELIABILITY_PG_KINTO_URL` and the
/// cluster's in `RELIABILITY_CLUSTER_URL`, with `RELIABILITY_PG_ROUNDS` rounds each. Through
/// the cluster, consecutive requests (the pages of one pull, a push and the pull after it) land
/// on different nodes, and the test checks they did. The normal suite runs a short version of
/// the same scenario on the memory Kinto of `KINTO_WORKLOAD_URL` (Docs/Reliability.md says why
/// the cluster is not in it).
@Suite("Concurrent writers while refreshing (Kinto; PostgreSQL and the cluster in scripts/torture)", .serialized)
struct PostgresHazardTests {
    /// A server the scenario runs against.
    struct Target: Sendable, CustomStringConvertible {
        var name: String
        var url: URL?
        /// Whether answers name the node that served them (`X-Kinto-Node`, scripts/cluster).
        var isCluster = false
        var description: String { name }

        /// The PostgreSQL node and the cluster when scripts/torture set them, else the memory Kinto.
        static var configured: [Target] {
            let environment = ProcessInfo.processInfo.environment
            var targets: [Target] = []
            if let url = environment["RELIABILITY_PG_KINTO_URL"].flatMap(URL.init(string:)) {
                targets.append(Target(name: "PostgreSQL", url: url))
            }
            if let url = environment["RELIABILITY_CLUSTER_URL"].flatMap(URL.init(string:)) {
                targets.append(Target(name: "cluster of 2 Kinto nodes", url: url, isCluster: true))
            }
            return targets.isEmpty ? [Target(name: "memory", url: nil)] : targets
        }
    }

    @Test(.liveServer, arguments: Target.configured)
    func refreshMissesNothingUnderConcurrentWriters(_ target: Target) async throws {
        let server = try target.url ?? KintoServer.workloadURL()
        let rounds = TestEnvironment.number("RELIABILITY_PG_ROUNDS", default: 3)
        let seed = TestEnvironment.reliabilitySeed
        var tally = ReliabilityTally(scenario: "concurrent writers + refresh (\(target.name))")
        var random = ObjectStoreCrashTests.SeededGenerator(seed: seed)
        let nodes = AnswerRecordingTransport()  // also the ends of the store's pages

        for round in 0..<rounds {
            let bucket = KintoServer.uniqueName("pg")
            let writers = ConcurrentWriters(server: server, bucket: bucket, collection: "shared")
            let backend = KintoServer.backend(server: server, bucket: bucket, timeout: .seconds(30), pageSize: 7, transport: nodes)
            var configuration = ObjectStore.Configuration()
            configuration.writeMode = .deferred
            try await withTemporaryStore(configuration: configuration, backend: backend,
                                         collections: [CollectionDescriptor("shared")]) { store in
                try await backend.prepare(collection: "shared")
                let seeds = (0..<3).map { _ in random.next() }
                let storeSeed = random.next()
                // Three writers and the store at once; the store edits ids of its own and syncs.
                let (written, storeRounds, past) = try await withThrowingTaskGroup(of: (Int, ConcurrentWriters.PastStamps).self) { group in
                    for kind in 0..<3 {
                        group.addTask {
                            let r = try await writers.run(kind: kind, rounds: 12, seed: seeds[kind])
                            return (r.accepted + r.conflicts, r.past)
                        }
                    }
                    var storeRandom = ObjectStoreCrashTests.SeededGenerator(seed: storeSeed)
                    var refreshes = 0
                    for n in 0..<10 {
                        let id = "mine-\(Int.random(in: 0..<6, using: &storeRandom))"
                        _ = try await store.collection("shared").save(["id": .string(id), "v": .int(Int64(n)), "by": "store"])
                        do { _ = try await store.sync() } catch let stop as OfflineStoreError where stop.report != nil {}
                        refreshes += 1
                    }
                    var total = 0, stamps = ConcurrentWriters.PastStamps()
                    for try await (requests, past) in group { total += requests; stamps.formUnion(past) }
                    return (total, refreshes, stamps)
                }
                // Quiescence: the writers are done; sync until the queue is empty.
                for _ in 0..<5 {
                    do { _ = try await store.sync() } catch let stop as OfflineStoreError where stop.report != nil { continue }
                    if try store.queueCount() == 0 { break }
                }
                let remote = try await writers.all()
                var local: [String: JSONValue] = [:]
                for value in try store.collection("shared").findAll() { local[value["id"]?.stringValue ?? "?"] = value }
                // A record last changed at a past client timestamp that came late, or that shares
                // one with a page's end, is outside what a pull promises (ConcurrentWriters.run).
                let hidden = try await writers.ids(lastChangedAt: past.unpromised(pageEnds: nodes.pageEnds))
                let missed = Set(remote.keys).union(local.keys).filter { remote[$0] != local[$0] && !hidden.contains($0) }
                if !hidden.isEmpty { print("round \(round): \(hidden.sorted()) last changed at a past client timestamp, not checked") }
                tally.runs += 1
                tally.injected += written + storeRounds
                tally.editsChecked += local.keys.filter { $0.hasPrefix("mine-") }.count
                tally.missed += missed.count
                let left = try store.queueEntries().map { "\($0.objectID) \($0.kind) \($0.state)" }
                #expect(left.isEmpty, "round \(round): entries left: \(left)")
                #expect(missed.isEmpty, """
                    round \(round) (seed \(seed)): local and server differ for \(missed.sorted()):
                    \(missed.sorted().map { "\($0): local \(local[$0].map { $0.serialized() } ?? "absent"), server \(remote[$0].map { $0.serialized() } ?? "absent")" }.joined(separator: "\n"))
                    """)
                #expect(remote.keys.contains { $0.hasPrefix("w") } && remote.keys.contains { $0.hasPrefix("mine-") })
            }
        }
        print(tally)
        #expect(tally.isClean, "\(tally)")
        if target.isCluster {
            // The store's requests went to both nodes, and its consecutive requests switched node.
            let served = nodes.nodes
            #expect(Set(served.compactMap { $0 }).count == 2, "nodes that served the store: \(Set(served.compactMap { $0 }))")
            #expect(zip(served, served.dropFirst()).contains { $0 != nil && $1 != nil && $0 != $1 })
            #expect(!served.contains { $0 == nil }, "an answer through the cluster did not name its node")
        }
    }
}
