import Foundation
import OfflineStore

/// A deterministic simulation of several apps syncing through a faulty network with one
/// Kinto-like server: each client runs the real store code on its own store file, the
/// server is an ``InMemoryBackend``, and one seeded scheduler decides everything else.
///
/// At each step the scheduler picks one thing that can happen: a client edits an object
/// or starts a `sync`, `flush` or `refresh`, or resolves its conflicts; a request or an
/// answer in flight is delivered, lost or (requests) delivered twice; a client stops
/// waiting for an answer (its request may still arrive later); a client process is killed
/// between two steps and its store file opened again. Time is a ``ManualDate`` that only
/// the scheduler moves: no wall-clock sleeps, no thread timing. Then the network heals,
/// every request still on the wire is delivered, the clients sync until nothing changes,
/// and the run is checked (``SimulationResult/violations``).
///
/// ```swift
/// let result = await Simulation().run(seed: 42)
/// if !result.passed { print(result.shortTrace().joined(separator: "\n")) }
/// ```
///
/// The same seed and configuration replay the same run and print the same trace.
///
/// Running needs macOS 15, iOS 18, tvOS 18, watchOS 11 or visionOS 2 (any Linux): every
/// client task prefers one `TaskExecutor`, which those versions introduced, so that the
/// store code of all clients runs on the simulation's thread in the scheduler's order.
public struct Simulation: Sendable {
    /// The shape of a run.
    public struct Configuration: Sendable {
        /// How many clients (apps, each with its own store file); default 3.
        public var clients = 3
        /// How many scheduler steps before the network heals; default 80.
        public var steps = 80
        /// The object ids every client edits; default k1…k3.
        public var objectIDs = ["k1", "k2", "k3"]
        /// How many object ids each client edits alone (`c1-p1`, `c1-p2`, …), so that what
        /// one client did is not always overwritten by another; default 2.
        public var privateIDs = 2
        /// The collection they live in; default "items".
        public var collection = "items"
        /// How long a client waits for an answer before it gives up; default 30 s.
        public var timeout: Duration = .seconds(30)
        /// The server's batch limit; default 3, so a flush sends several batches.
        public var maxBatchSize = 3
        /// The server's page size; default 3, so a refresh reads several pages.
        public var pageSize = 3
        /// The weight of a kill among a step's choices (per client; an edit weighs 30); default 1.
        public var killWeight = 1
        /// The conflict policies the clients get, in turn; default preserveConflict (the
        /// scheduler resolves those conflicts as an app would) and clientWins.
        public var policies: [ConflictPolicy] = [.preserveConflict, .clientWins]
        /// The store configuration every client starts from (the simulation sets deferred
        /// writes, its own clock and a silent logger).
        public var store = ObjectStore.Configuration()
        /// The values of the `tag` field that edits and the server's writer give records; the
        /// scopes select on it, so a record enters and leaves a scope as its tag changes.
        public var tags = ["red", "blue", "green"]
        /// The sync scope each client starts with, in turn (nil: the whole collection);
        /// default: whole, `tag in [red, blue]`, `tag == red`.
        public var scopes: [ServerQuery?] = [nil, ServerQuery([.isIn("tag", ["red", "blue"])]),
                                             ServerQuery([.equal("tag", "red")])]
        /// The scopes an app may switch a client to (registering the collection again); empty: never.
        public var scopeChoices: [ServerQuery?] = [nil, ServerQuery([.isIn("tag", ["red", "blue"])]),
                                                   ServerQuery([.equal("tag", "red")]), ServerQuery([.equal("tag", "blue")]),
                                                   ServerQuery([ServerQuery.Term("tag", .notEqual, "green")])]
        /// The weight of a scope change among a step's choices (per idle client); default 2.
        public var rescopeWeight = 2
        /// The weight of a write by another writer straight on the server (a single write, a
        /// batch, a delete) among a step's choices; 0 turns that writer off; default 8.
        public var serverWriterWeight = 8
        /// The ids only that writer writes, besides the shared ones; default 3.
        public var writerIDs = 3
        /// How often (percent) one of the server writer's puts is a collider: it sends the
        /// collection timestamp it read before its batch as `last_modified`, which Kinto's memory
        /// backend keeps when the batch wrote before it, so two changes share a timestamp; default 25.
        public var colliderPercent = 25
        /// The look-back of the clients' pulls (`KintoBackend`'s, which the in-memory server
        /// applies to every pull's cursor); default 5 s.
        public var lookBack: Duration = .seconds(5)
        /// Whether a client's next page starts at the last timestamp of the page before, as
        /// `KintoBackend` asks it (`KintoPageBoundary`); false follows the server's continuation,
        /// which starts after it and skips a change sharing it; default true.
        public var overlapsPageBoundaries = true
        /// The page size of the server for the pulls of each run, drawn from these per run;
        /// default 1, 2 or 3 (``pageSize`` when empty).
        public var pageSizes = [1, 2, 3]

        /// The default shape.
        public init() {}
    }

    /// The shape of every run.
    public let configuration: Configuration

    /// A simulation of this shape.
    public init(configuration: Configuration = Configuration()) {
        precondition(configuration.clients >= 1 && !configuration.objectIDs.isEmpty && !configuration.policies.isEmpty
                     && !configuration.scopes.isEmpty && !configuration.tags.isEmpty,
                     "a simulation needs a client, an object id, a policy, a scope and a tag")
        self.configuration = configuration
    }

    /// Runs the simulation for `seed` on a thread of its own (the client tasks run there in
    /// the scheduler's order) and returns what happened.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    public func run(seed: UInt64) async -> SimulationResult {
        let configuration = configuration
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: SimulationRun(seed: seed, configuration: configuration).run())
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Runs the simulation for `seed` on the calling thread, which it blocks until the end
    /// (for command-line tools; from async code use ``run(seed:)``).
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    public func runBlocking(seed: UInt64) -> SimulationResult {
        SimulationRun(seed: seed, configuration: configuration).run()
    }
}

/// What one simulated run did, and what its checks found.
public struct SimulationResult: Sendable {
    /// A broken promise found after quiescence, and the objects it concerns.
    public struct Violation: Sendable, Hashable, CustomStringConvertible {
        /// Which promise was broken.
        public enum Kind: String, Sendable, Hashable {
            /// An acknowledged edit never reached the server (and nothing superseded it).
            case lost
            /// An acknowledged delete was undone by the deleting client's own late write.
            case undone
            /// A store and the server disagree after quiescence.
            case diverged
            /// A queue still holds entries after quiescence.
            case stuck
            /// The run itself failed (a store could not open, a task never came back).
            case run
        }

        /// Which promise was broken.
        public let kind: Kind
        /// What was wrong.
        public let message: String
        /// The object ids involved (to pick the trace lines that matter).
        public let ids: [String]
        /// The message.
        public var description: String { message }
    }

    /// Counts of what the scheduler did.
    public struct Statistics: Sendable, Hashable {
        /// Steps run before healing, and by the healing phase.
        public var steps = 0
        /// Requests sent by clients.
        public var requests = 0
        /// Requests the server applied after the client had stopped waiting.
        public var lateDeliveries = 0
        /// Requests delivered a second time.
        public var duplicates = 0
        /// Requests and answers lost.
        public var drops = 0
        /// Calls a client gave up waiting for.
        public var timeouts = 0
        /// Client processes killed and restarted.
        public var kills = 0
        /// Local edits acknowledged to the app.
        public var edits = 0
        /// Conflicts the app resolved.
        public var resolutions = 0
        /// A client's own create (sent before its delete of the object) that the server
        /// applied after that delete: the delayed-create hazard, met (the checks say
        /// whether the store repaired it).
        public var lateCreatesAfterOwnDelete = 0
        /// A client's late create that the server applied over another client's delete.
        public var lateCreatesAfterOthersDelete = 0

        /// All zero.
        public init() {}
    }

    /// The seed of the run.
    public let seed: UInt64
    /// Every step, one line each (with indented lines for what the clients did).
    public let trace: [String]
    /// What the checks found; empty when the run kept every promise.
    public let violations: [Violation]
    /// What the scheduler did.
    public let statistics: Statistics

    /// Whether the run kept every promise.
    public var passed: Bool { violations.isEmpty }

    /// The violations and the trace lines that mention their objects.
    public func shortTrace() -> [String] {
        let ids = Set(violations.flatMap(\.ids))
        let lines = trace.filter { line in ids.contains { Self.mentions(line, id: $0) } }
        return ["seed \(seed): \(violations.count) violation(s)"] + violations.map { "  ! \($0.message)" } + lines
    }
}

extension SimulationResult.Statistics {
    /// Adds another run's counts to these.
    public mutating func add(_ other: Self) {
        steps += other.steps
        requests += other.requests
        lateDeliveries += other.lateDeliveries
        duplicates += other.duplicates
        drops += other.drops
        timeouts += other.timeouts
        kills += other.kills
        edits += other.edits
        resolutions += other.resolutions
        lateCreatesAfterOwnDelete += other.lateCreatesAfterOwnDelete
        lateCreatesAfterOthersDelete += other.lateCreatesAfterOthersDelete
    }
}

extension SimulationResult {
    /// Whether a trace line mentions object `id` (as a whole word).
    static func mentions(_ line: String, id: String) -> Bool {
        var rest = Substring(line)
        while let range = rest.range(of: id) {
            let before = rest[..<range.lowerBound].last, after = rest[range.upperBound...].first
            let isWord: (Character?) -> Bool = { $0.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } ?? false }
            if !isWord(before) && !isWord(after) { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }
}
