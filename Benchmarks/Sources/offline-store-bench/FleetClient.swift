import Foundation
import OfflineStore

/// One client of the fleet benchmark, in a process of its own with a store file of its own
/// (`offline-store-bench child fleet-client …`). It makes offline edits on records of its own
/// in the fleet's shared collections and syncs them on a schedule; then it says so on standard
/// output, waits for the word `converge` on standard input (every client is done editing), and
/// syncs once more. Its own records' expected final state goes to `<store>.expected.json`.
///
/// Lines it prints: `edited`, then one JSON object with its counts (``Report``).
enum FleetClient {
    /// What the parent passes on the command line.
    struct Settings {
        var url: URL
        var bucket: String
        var client: Int
        var path: String
        var rounds: Int
        var edits: Int
        var interval: Duration
        var collections: Int

        init(_ arguments: [String]) throws {
            guard arguments.count == 8, let url = URL(string: arguments[0]), let client = Int(arguments[2]),
                  let rounds = Int(arguments[4]), let edits = Int(arguments[5]), let ms = Int(arguments[6]),
                  let collections = Int(arguments[7]) else {
                throw BenchError("fleet-client URL BUCKET CLIENT STORE ROUNDS EDITS INTERVAL_MS COLLECTIONS")
            }
            (self.url, bucket, self.client, path) = (url, arguments[1], client, arguments[3])
            (self.rounds, self.edits, interval, self.collections) = (rounds, edits, .milliseconds(ms), collections)
        }

        var arguments: [String] {
            [url.absoluteString, bucket, String(client), path, String(rounds), String(edits),
             String(Int(interval.seconds * 1000)), String(collections)]
        }
    }

    /// The client's figures: its first sync (which also prepares the bucket and collections),
    /// the later scheduled syncs, and the last one, after every client is done.
    struct Report: Codable {
        var edits = 0
        var firstSyncRequests = 0
        var firstSyncBytes = 0
        var syncs = 0
        /// What the scheduled syncs may send at most: per sync, one batch (of at most 25) per
        /// run of same-collection entries in the queue (a flush keeps the store-wide order of
        /// edits, Docs/Architecture.md) and one pull per collection.
        var requestBound = 0
        var requests = 0
        var bytes = 0
        var convergeSeconds = 0.0
        var convergeRequests = 0
        var convergeBytes = 0
    }

    static func collectionNames(_ count: Int) -> [String] { (0..<count).map { "fleet\($0)" } }

    static func store(path: String, backend: (any Backend)?, collections: Int) throws -> ObjectStore {
        var configuration = ObjectStore.Configuration()
        configuration.writeMode = .deferred
        let store = try ObjectStore(path: path, configuration: configuration, backend: backend)
        for name in collectionNames(collections) { try store.register(CollectionDescriptor(name)) }
        return store
    }

    static func run(_ arguments: [String]) async throws {
        let settings = try Settings(arguments)
        let counting = CountingTransport()
        let backend = KintoBackend(configuration: .init(serverURL: settings.url, bucket: settings.bucket,
                                                        auth: .basic(user: "fleet", password: "fleet"),
                                                        timeout: .seconds(120), shareBucketWithAuthenticatedUsers: true),
                                   transport: counting)
        let store = try store(path: settings.path, backend: backend, collections: settings.collections)
        defer { try? store.close() }
        let names = collectionNames(settings.collections)
        var random = SplitMix(state: UInt64(settings.client + 1) &* 0x9E37_79B9)
        var own: [String: JSONValue?] = [:]   // "collection/id" → the last value written, nil when deleted
        var live: [String: [String]] = [:]    // collection → own ids alive
        var report = Report()
        var created = 0

        func sync() async throws {
            let bound = try requestBound(store.queueEntries(), collections: settings.collections)
            let before = counting.current
            do { _ = try await store.sync() } catch let error as OfflineStoreError where error.report != nil {
                FileHandle.standardError.write(Data("fleet client \(settings.client): sync stopped: \(error)\n".utf8))
            }
            let spent = counting.current - before
            if report.firstSyncRequests == 0 {
                (report.firstSyncRequests, report.firstSyncBytes) = (spent.requests, spent.bytes)
                return
            }
            report.syncs += 1
            report.requestBound += bound
            report.requests += spent.requests
            report.bytes += spent.bytes
        }

        let clock = ContinuousClock()
        let start = clock.now
        for round in 0..<settings.rounds {
            for _ in 0..<settings.edits {
                let collection = names[Int(random.next() % UInt64(names.count))]
                let ids = live[collection] ?? []
                let dice = random.next() % 10
                if !ids.isEmpty, dice < 2 {
                    let id = ids[Int(random.next() % UInt64(ids.count))]
                    try await store.collection(collection).destroy(id)
                    live[collection] = ids.filter { $0 != id }
                    own["\(collection)/\(id)"] = .some(nil)
                } else {
                    let id: String
                    if !ids.isEmpty, dice < 5 { id = ids[Int(random.next() % UInt64(ids.count))] } else {
                        id = "c\(settings.client)-\(created)"
                        created += 1
                        live[collection, default: []].append(id)
                    }
                    let value: JSONValue = ["id": .string(id), "client": .int(Int64(settings.client)),
                                            "round": .int(Int64(round)), "title": .string("edit \(report.edits) of \(id)")]
                    _ = try await store.collection(collection).save(value)
                    own["\(collection)/\(id)"] = value
                }
                report.edits += 1
            }
            try await sync()
            // The schedule: round r's sync starts at r × interval (a slow sync delays the next one).
            try await clock.sleep(until: start + settings.interval * (round + 1))
        }
        // Whatever a sync left queued (a 5xx, a conflict) goes before this client says it is done.
        for _ in 0..<10 where try store.queueCount() > 0 { try await sync() }
        guard try store.queueCount() == 0 else { throw BenchError("fleet client \(settings.client): edits left queued") }

        let expected = JSONValue.object(own.mapValues { $0 ?? .null })
        try Data(expected.serialized().utf8).write(to: URL(fileURLWithPath: settings.path + ".expected.json"))
        FileHandle.standardOutput.write(Data("edited\n".utf8))
        guard readLine() == "converge" else { throw BenchError("fleet client \(settings.client): no converge signal") }

        let before = counting.current
        let began = clock.now
        try await sync()
        report.convergeSeconds = (clock.now - began).seconds
        report.convergeRequests = (counting.current - before).requests
        report.convergeBytes = (counting.current - before).bytes
        report.syncs -= 1
        report.requestBound -= settings.collections
        report.requests -= report.convergeRequests
        report.bytes -= report.convergeBytes
        let line = try JSONEncoder().encode(report)
        FileHandle.standardOutput.write(line + Data("\n".utf8))
    }
}

extension FleetClient {
    /// The most requests a sync of `queue` may send: a batch per run of entries of one
    /// collection (25 at most each), and a pull per collection.
    static func requestBound(_ queue: [QueueEntry], collections: Int) -> Int {
        var batches = 0, run = 0
        var previous: String?
        for entry in queue {
            if entry.collection != previous || run == 25 { batches += 1; run = 0 }
            run += 1
            previous = entry.collection
        }
        return batches + collections
    }
}

/// A small seeded generator (SplitMix64), so every client's edits are the same in every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
