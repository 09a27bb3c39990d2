import Foundation
import OfflineStore
import Testing

/// Many processes on one store file against a real Kinto: an immediate editor (one
/// `offline-store` process per command), a deferred editor (this test process, through the
/// library), a `sync --every 150ms` service and a loop of one-shot `sync`s, all at once. Before the cross-process sync lock,
/// 37 to 65 of about 150 commands exited 1 ("queue entry N has no local copy to send"):
/// each starting flush took the other process's in-flight entries for a crash's leftovers.
@Suite("CLI many processes")
struct CLIManyProcessTests {
    static let editsPerEditor = 12

    /// The immediate editor: one `offline-store` process per command, creating objects
    /// without ids (a duplicate on the server would show as two records with one tag) and
    /// editing each once; every command must exit 0.
    static func editWithTheCLI(_ store: CLIStore, editor: String) async throws -> [String] {
        var failures: [String] = []
        for n in 1...editsPerEditor {
            let tag = "\(editor)-\(n)"
            let created = try await store.run("create", "todos", #"{"tag":"\#(tag)","n":0}"#)
            guard created.status == 0, let id = try? created.json()["id"]?.stringValue else {
                failures.append("create \(tag): \(created)"); continue
            }
            let updated = try await store.run("update", "todos", id, #"{"n":\#(n)}"#, "--merge")
            if updated.status != 0 { failures.append("update \(tag): \(updated)") }
        }
        return failures
    }

    /// The deferred editor: this test process, through the library, on the same file.
    static func editWithTheLibrary(_ path: String, editor: String) async throws -> [String] {
        var configuration = ObjectStore.Configuration()
        configuration.writeMode = .deferred
        let store = try ObjectStore(path: path, configuration: configuration)
        defer { try? store.close() }
        var failures: [String] = []
        let todos = store.collection("todos")
        for n in 1...editsPerEditor {
            do {
                let created = try await todos.create(["tag": .string("\(editor)-\(n)"), "n": 0])
                try await todos.patch(created["id"]?.stringValue ?? "", ["n": .int(Int64(n))])
            } catch { failures.append("\(editor)-\(n): \(error)") }
        }
        return failures
    }

    @Test func editorsAndSyncersOnOneFileNeverFailAndLoseOrDuplicateNothing() async throws {
        try await CLIWorkspace.with { workspace in
            let shared = try await workspace.store("shared").initialise(deferred: false)
            let service = try workspace.start(["sync", "--every", "150ms", "--store", shared.path])
            let notice = await service.stderr.first { $0.contains("syncing every") }
            try #require(notice != nil, "no start notice: \(service.stderr.lines)")

            let failures = try await withThrowingTaskGroup(of: [String].self) { group in
                group.addTask { try await Self.editWithTheCLI(shared, editor: "immediate") }
                group.addTask { try await Self.editWithTheLibrary(shared.path, editor: "deferred") }
                group.addTask {
                    var failures: [String] = []
                    for _ in 1...8 {
                        let synced = try await shared.run("sync")
                        if synced.status != 0 { failures.append("sync: \(synced)") }
                    }
                    return failures
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            service.send(SIGTERM)
            let serviceResult = try await service.finish()
            #expect(failures.isEmpty, "\(failures.count) failed commands:\n\(failures.joined(separator: "\n"))")
            #expect(serviceResult.status == 0, "\(serviceResult)")
            #expect(try serviceResult.jsonLines().allSatisfy { $0["exitCode"] == 0 }, "\(serviceResult)")

            try await shared.expect(0, "sync")
            #expect(try await shared.queue().isEmpty)
            let checker = try await workspace.store("checker").initialise()
            try await checker.expect(0, "refresh")
            let onServer = try await checker.expect(0, "list", "todos").json().arrayValue ?? []
            let local = try await shared.expect(0, "list", "todos").json().arrayValue ?? []
            let expected = Set(["immediate", "deferred"].flatMap { e in (1...Self.editsPerEditor).map { "\(e)-\($0)" } })
            let serverTags = onServer.compactMap { $0["tag"]?.stringValue }
            #expect(serverTags.count == expected.count, "lost or duplicated: \(serverTags.count) records")
            #expect(Set(serverTags) == expected)
            #expect(onServer.allSatisfy { record in
                record["n"]?.intValue == Int64(record["tag"]?.stringValue?.split(separator: "-").last ?? "")
            }, "every object's last edit reached the server")
            #expect(Set(local) == Set(onServer), "the store equals the server")
        }
    }

    @Test func isSyncingSeesAnotherProcess() async throws {
        try await CLIWorkspace.with { workspace in
            let shared = try await workspace.store("shared").initialise()
            let store = try ObjectStore(path: shared.path)
            #expect(store.isSyncing == false)
            // A process that holds the sync lock: `sync --every 1h` holds it only during
            // runs, so hold the file's lock the way a running flush does, from another process.
            let holder = try workspace.start(["flock", shared.path + ".sync-lock", "sh", "-c", "echo held; read line"],
                                             executable: URL(fileURLWithPath: "/usr/bin/env"))
            let held = await holder.stdout.first { $0 == "held" }
            try #require(held != nil)
            #expect(store.isSyncing)
            holder.send(SIGTERM)
            _ = try? await holder.finish()
            #expect(store.isSyncing == false)
            try store.close()
        }
    }
}
