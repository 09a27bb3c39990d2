import Foundation
import OfflineStoreTesting
import GRDB
import Testing
@testable import OfflineStore
import OfflineStorePlatform

/// No acknowledged edit is lost when the process is killed (SPEC §11).
///
/// The `crash-writer` executable (Tests/CrashWriter) edits a store in a loop and prints
/// an `intent` line before and an `ack` line after each edit. This suite kills it with
/// SIGKILL after a seeded-random number of lines, reopens the store and checks that
/// every acknowledged edit is there, again and again on the same store file.
@Suite("ObjectStore durability across kill -9", .serialized)
struct ObjectStoreCrashTests {
    static let ids = (0..<12).map { "item-\($0)" }

    /// What an object must look like: `{"id", "counter", "created"}`.
    struct Item: Equatable, CustomStringConvertible {
        var counter: Int64
        var created: Int64
        var description: String { "(counter \(counter), created \(created))" }
    }

    typealias Model = [String: Item]

    /// One edit as the writer announced it.
    struct Edit: Equatable {
        var n: Int64
        var op: String
        var ids: [String]
        var value: Int64

        init?(_ fields: ArraySlice<Substring>) {
            let f = Array(fields)
            guard f.count == 4, let n = Int64(f[0]), let value = Int64(f[3]) else { return nil }
            self.n = n
            op = String(f[1])
            ids = f[2].split(separator: ",").map(String.init)
            self.value = value
        }

        /// The model after this edit.
        func applied(to model: Model) -> Model {
            var model = model
            for id in ids {
                switch op {
                case "create", "save": model[id] = Item(counter: value, created: value)
                case "destroy": model[id] = nil
                default: model[id]?.counter = value
                }
            }
            return model
        }
    }

    /// Where to kill the writer, counted in lines read from it, never in time.
    enum KillPoint: CustomStringConvertible {
        /// Right after reading the n-th acknowledgement.
        case afterAck(Int)
        /// Right after reading the intent of the edit following the n-th acknowledgement,
        /// so the kill is likely to land in the middle of that edit.
        case duringEdit(Int)

        var acks: Int {
            switch self { case .afterAck(let n), .duringEdit(let n): n }
        }
        var description: String {
            switch self {
            case .afterAck(let n): "after ack #\(n)"
            case .duringEdit(let n): "during the edit after ack #\(n)"
            }
        }
    }

    /// What the writer printed before it died.
    struct WriterRun {
        var acks: [Edit] = []
        var intents: [Edit] = []
        var killed = false
        var exitStatus: Int32 = 0
        var stderr = ""
    }

    // MARK: Finding and running the writer

    /// The `crash-writer` executable: `$CRASH_WRITER`, next to the test bundle, or in the
    /// package's `.build/debug`.
    static func writerURL() -> URL? {
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["CRASH_WRITER"] {
            candidates.append(URL(fileURLWithPath: path))
        }
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("crash-writer"))
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("crash-writer"))
        }
        candidates.append(DocumentationTests.root.appendingPathComponent(".build/debug/crash-writer"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs the writer on `storePath` and kills it with SIGKILL at `killPoint`; returns
    /// every line it printed (the pipe is read to its end after the kill).
    static func runWriter(_ writer: URL, storePath: String, seed: UInt64, firstValue: Int64,
                          killPoint: KillPoint, stderrPath: String) async throws -> WriterRun {
        // Reading the pipe blocks, so it happens on a thread of its own, not on the test's executor.
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<WriterRun, any Error>) in
            let thread = Thread {
                continuation.resume(with: Result(catching: {
                    try runWriterBlocking(writer, storePath: storePath, seed: seed, firstValue: firstValue,
                                          killPoint: killPoint, stderrPath: stderrPath)
                }))
            }
            thread.start()
        }
    }

    private static func runWriterBlocking(_ writer: URL, storePath: String, seed: UInt64, firstValue: Int64,
                                          killPoint: KillPoint, stderrPath: String) throws -> WriterRun {
        let child = try ChildSpawn(executable: writer.path, arguments: [storePath, String(seed), String(firstValue)],
                                   stderr: .file(stderrPath))
        var reaped = false
        defer { if !reaped { child.signal(Signals.kill); _ = child.waitForExit() } }

        var run = WriterRun()
        try child.forEachOutputLine { line in
            let fields = line.split(separator: " ")
            guard let kind = fields.first, let edit = Edit(fields.dropFirst()) else {
                throw WriterError("unreadable line from crash-writer: \(line)")
            }
            switch kind {
            case "intent": run.intents.append(edit)
            case "ack": run.acks.append(edit)
            default: throw WriterError("unreadable line from crash-writer: \(line)")
            }
            guard !run.killed else { return }
            let due: Bool
            switch killPoint {
            case .afterAck(let n): due = kind == "ack" && run.acks.count == n
            case .duringEdit(let n): due = kind == "intent" && run.intents.count == n + 1
            }
            if due {
                child.signal(Signals.kill)
                // Go on reading to the end: lines the writer printed before it died count too.
                run.killed = true
            }
        }
        run.exitStatus = child.waitForExit()
        reaped = true
        run.stderr = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        return run
    }

    struct WriterError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: Checking the store

    /// Every object of the collection as the test's model sees it; fails on an object of another shape.
    static func actualModel(_ store: ObjectStore) throws -> Model {
        var model: Model = [:]
        for value in try store.collection("items").findAll() {
            let id = try #require(value["id"]?.stringValue)
            let item = Item(counter: try #require(value["counter"]?.intValue), created: try #require(value["created"]?.intValue))
            #expect(value.objectValue?.count == 3, "\(id) has unexpected fields: \(value)")
            model[id] = item
        }
        return model
    }

    /// SplitMix64 (the simulator's), for kill points that are random but replayable from the seed.
    typealias SeededGenerator = SimulationRandom

    // MARK: The test

    @Test func everyAcknowledgedEditSurvivesKillMinus9() async throws {
        let writer = try #require(Self.writerURL(), """
            the crash-writer executable was not found: build it with `swift build --build-tests` \
            (it is looked for next to the test bundle, in .build/debug, or at $CRASH_WRITER)
            """)
        let seed = TestEnvironment.number("CRASH_TEST_SEED", default: 20_240_611 as UInt64)
        var random = SeededGenerator(seed: seed)
        let rounds = 30

        try await withTemporaryDirectory { directory in
            let storePath = directory.path("crash.sqlite")
            var model: Model = [:]
            var firstValue: Int64 = 1
            var totalAcks = 0

            for round in 0..<rounds {
                let acks = Int.random(in: 5...200, using: &random)
                let killPoint: KillPoint = Bool.random(using: &random) ? .afterAck(acks) : .duringEdit(acks)
                let context = "round \(round) (seed \(seed), kill \(killPoint))"
                let run = try await Self.runWriter(writer, storePath: storePath, seed: random.next(), firstValue: firstValue,
                                                   killPoint: killPoint, stderrPath: directory.path("stderr-\(round).txt"))
                try #require(run.killed, "\(context): crash-writer ended by itself (status \(run.exitStatus)): \(run.stderr)")
                #expect(run.exitStatus == SIGKILL, "\(context)")
                try #require(run.acks.count >= acks, "\(context)")

                // The writer's lines are consistent: ack k follows intent k, numbered in order.
                #expect(run.acks.map(\.n) == Array(0..<Int64(run.acks.count)), "\(context)")
                #expect(Array(run.intents.prefix(run.acks.count)) == run.acks, "\(context)")
                try #require(run.intents.count <= run.acks.count + 1, "\(context)")
                let unacknowledged = run.intents.count > run.acks.count ? run.intents.last : nil

                // Reopen: the store opens cleanly and passes SQLite's integrity check.
                let store = try ObjectStore(path: storePath)
                let integrity = try store.local.read("checking integrity") { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
                #expect(integrity == ["ok"], "\(context)")

                // Every acknowledged edit is there; the one in progress is all there or not at all.
                let acknowledged = run.acks.reduce(model) { $1.applied(to: $0) }
                let actual = try Self.actualModel(store)
                if actual == acknowledged {
                    model = acknowledged
                } else if let unacknowledged, actual == unacknowledged.applied(to: acknowledged) {
                    model = actual
                } else {
                    let lost = Self.ids.filter { actual[$0] != acknowledged[$0] }
                        .map { "\($0): stored \(actual[$0].map(String.init(describing:)) ?? "absent"), "
                            + "acknowledged \(acknowledged[$0].map(String.init(describing:)) ?? "absent")" }
                    let details = lost.joined(separator: "\n")
                    Issue.record("\(context): the store lost acknowledged edits (in progress: \(String(describing: unacknowledged))):\n\(details)")
                    try store.close()
                    return
                }

                // Each object has exactly its create queued (never synced; updates coalesce into it),
                // and deleted objects have left nothing behind.
                let entries = try store.queueEntries()
                #expect(entries.count == model.count, "\(context)")
                #expect(Set(entries.map(\.objectID)) == Set(model.keys), "\(context)")
                #expect(entries.allSatisfy { $0.collection == "items" && $0.kind == .create && $0.state == .pending }, "\(context)")
                for id in Self.ids {
                    let object = try store.collection("items").object(id)
                    if model[id] != nil {
                        #expect(object?.state == .created, "\(context): \(id)")
                    } else {
                        #expect(object == nil, "\(context): \(id) should have left no row")
                    }
                }
                try store.close()
                firstValue += Int64(run.intents.count)
                totalAcks += run.acks.count
            }
            #expect(totalAcks >= rounds * 5)
        }
    }
}
