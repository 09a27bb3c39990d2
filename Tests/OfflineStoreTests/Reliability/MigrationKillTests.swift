import Foundation
import OfflineStore
import OfflineStorePlatform
import OfflineStoreTesting
import Testing

/// A stored migration is one transaction: a process killed with SIGKILL while it migrates a
/// collection leaves the old state (version 1, every copy in the old shape) or the new one
/// (version 3, every copy in the new shape), never a mix; the next registration finishes it.
///
/// `crash-writer migrate` (Tests/CrashWriter/MigrationRun.swift) registers version 3 over a
/// release-1 store of synced objects, queued edits, new objects and a conflict, printing a
/// line for each copy its transform rewrites; the test kills it after a seeded-random number
/// of those lines (counted, never timed), in some rounds, and lets it finish in another. The
/// release-1 store is made once and copied for each round, to keep the test light beside the
/// rest of the suite.
@Suite("Kill -9 during a stored migration", .serialized)
struct MigrationKillTests {
    static let objects = 120

    /// The collection at version 3, as the child registers it (without its announcements).
    static var versionThree: CollectionDescriptor {
        var items = CollectionDescriptor("items")
        items.schemaVersion = 3
        items.migrations = [
            .renameField("name", to: "title", in: 2),
            .addField("priority", default: 0, in: 3),
            .transform(in: 3) { record in if record["tags"] == nil { record["tags"] = ["imported"] } },
        ]
        return items
    }

    /// A release-1 store: synced objects, 30 of them edited (queued), 10 created offline, one conflict.
    static func releaseOne(at path: String) async throws -> Int {
        let backend = InMemoryBackend()
        let store = try ObjectStore(path: path, configuration: .with { $0.writeMode = .deferred }, backend: backend)
        defer { try? store.close() }
        try store.register(CollectionDescriptor("items"))
        for i in 0..<objects { _ = backend.put(collection: "items", id: "item-\(i)", record: ["name": .string("item \(i)"), "done": false]) }
        _ = try await store.sync()
        let items = store.collection("items")
        try await items.patch("item-0", ["name": "mine"])
        _ = backend.put(collection: "items", id: "item-0", record: ["name": "theirs", "done": true])
        #expect(try await store.flush().conflicts == 1)
        for i in 1...30 { try await items.patch("item-\(i)", ["name": .string("edited \(i)")]) }
        for i in 0..<10 { try await items.create(["id": .string("new-\(i)"), "name": .string("new \(i)")]) }
        return try store.queueCount()
    }

    /// Every copy of every object, in which shape: (old, new); anything else fails the test.
    static func shapes(of store: ObjectStore) throws -> (old: Int, new: Int) {
        var old = 0, new = 0
        for value in try store.collection("items").findAll() {
            let id = try #require(value["id"]?.stringValue)
            let object = try #require(try store.collection("items").object(id))
            for copy in [object.local, object.persistent, object.base].compactMap({ $0 }) {
                if copy["name"] != nil, copy["title"] == nil, copy["tags"] == nil { old += 1 }
                else if copy["name"] == nil, copy["title"] != nil, copy["priority"] == 0, copy["tags"] == ["imported"] { new += 1 }
                else { Issue.record("\(id) has a copy in neither shape: \(copy)") }
            }
        }
        return (old, new)
    }

    struct Run {
        var migrating = 0
        var finished = false
        var killed = false
        var status: Int32 = 0
        var stderr = ""
    }

    /// Runs `crash-writer migrate` on `path`, killing it after `killAfter` `migrating` lines (nil: never).
    static func migrate(_ writer: URL, path: String, killAfter: Int?, stderrPath: String) async throws -> Run {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Run, any Error>) in
            Thread {
                continuation.resume(with: Result {
                    let child = try ChildSpawn(executable: writer.path, arguments: ["migrate", path], stderr: .file(stderrPath))
                    var run = Run()
                    child.forEachOutputLine { line in
                        if line.hasPrefix("migrating ") { run.migrating += 1 }
                        if line.hasPrefix("migrated ") { run.finished = true }
                        if !run.killed, let killAfter, run.migrating >= killAfter {
                            child.signal(Signals.kill)
                            run.killed = true
                        }
                    }
                    run.status = child.waitForExit()
                    run.stderr = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
                    return run
                })
            }.start()
        }
    }

    @Test func aKilledMigrationLeavesTheOldStateOrTheNewNeverAMix() async throws {
        let writer = try #require(ObjectStoreCrashTests.writerURL(), "the crash-writer executable was not found: build it with `swift build --build-tests`")
        let seed = ProcessInfo.processInfo.environment["CRASH_TEST_SEED"].flatMap(UInt64.init) ?? 20_261_125
        var random = ObjectStoreCrashTests.SeededGenerator(seed: seed)
        var oldAfterKill = 0
        try await withTemporaryDirectory { directory in
            // One release-1 store, copied for each round (closed, so its WAL is checkpointed).
            let original = directory.path("release-1.sqlite")
            let queued = try await Self.releaseOne(at: original)
            for round in 0..<4 {
                let path = directory.path("round-\(round).sqlite")
                for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: original + suffix) {
                    try FileManager.default.copyItem(atPath: original + suffix, toPath: path + suffix)
                }
                // Rounds 0–2 are killed within the first half of the copies; round 3 finishes.
                let killAfter = round < 3 ? Int.random(in: 1...Self.objects / 2, using: &random) : nil
                let context = "round \(round) (seed \(seed), kill after \(killAfter.map(String.init) ?? "never"))"
                let run = try await Self.migrate(writer, path: path, killAfter: killAfter, stderrPath: directory.path("stderr-\(round).txt"))
                #expect(run.killed == (killAfter != nil), "\(context): \(run.stderr)")
                if killAfter == nil { #expect(run.finished && run.status == 0, "\(context): \(run.stderr)") }

                let store = try ObjectStore(path: path)
                let version = try store.descriptor(of: "items").schemaVersion
                let (old, new) = try Self.shapes(of: store)
                #expect(try store.queueCount() == queued, "\(context): the queue is kept")
                switch version {
                case 1:
                    #expect(new == 0 && old > Self.objects, "\(context): version 1 with \(new) migrated copies")
                    oldAfterKill += run.killed ? 1 : 0
                case 3:
                    #expect(old == 0 && new > Self.objects, "\(context): version 3 with \(old) copies left behind")
                default:
                    Issue.record("\(context): version \(version)")
                }
                // The next registration finishes what the killed one started.
                try store.register(Self.versionThree)
                #expect(try store.descriptor(of: "items").schemaVersion == 3)
                let after = try Self.shapes(of: store)
                #expect(after.old == 0 && after.new == old + new, "\(context)")
                #expect(try store.collection("items").find("item-1")?["title"] == "edited 1")
                #expect(try store.conflicts(in: "items").first?.server?["title"] == "theirs")
                try store.close()
            }
        }
        #expect(oldAfterKill > 0, "no kill landed inside a migration's transaction")
    }
}
