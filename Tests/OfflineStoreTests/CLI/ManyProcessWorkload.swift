import Foundation
import OfflineStore
import Testing

/// The editors and the final check of the many-process tests: several processes edit one
/// store file while others sync it; every object carries a unique `tag` and the last
/// value `n` it was given, so loss and duplication show on the server.
enum ManyProcessWorkload {
    /// The immediate editor: one `offline-store` process per command, creating objects
    /// without ids (a duplicate on the server shows as two records with one tag) and
    /// editing each once. Returns the commands that did not exit 0.
    static func editWithTheCLI(_ store: CLIStore, editor: String, edits: Int) async throws -> [String] {
        var failures: [String] = []
        for n in 1...edits {
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
    static func editWithTheLibrary(_ path: String, editor: String, edits: Int) async throws -> [String] {
        var configuration = ObjectStore.Configuration()
        configuration.writeMode = .deferred
        let store = try ObjectStore(path: path, configuration: configuration)
        defer { try? store.close() }
        var failures: [String] = []
        let todos = store.collection("todos")
        for n in 1...edits {
            do {
                let created = try await todos.create(["tag": .string("\(editor)-\(n)"), "n": 0])
                try await todos.patch(created["id"]?.stringValue ?? "", ["n": .int(Int64(n))])
            } catch { failures.append("\(editor)-\(n): \(error)") }
        }
        return failures
    }

    /// One-shot `sync`s, one process each. Returns the ones that did not exit 0.
    static func syncRepeatedly(_ store: CLIStore, times: Int) async throws -> [String] {
        var failures: [String] = []
        for _ in 1...times {
            let synced = try await store.run("sync")
            if synced.status != 0 { failures.append("sync: \(synced)") }
        }
        return failures
    }

    /// Syncs `shared` to quiescence and compares it, and a second store that refreshes,
    /// with what the editors acknowledged (`editors` × `edits` tags, each `n` = its number).
    static func check(_ workspace: CLIWorkspace, _ shared: CLIStore, editors: [String], edits: Int,
                      into tally: inout ReliabilityTally) async throws {
        try await shared.expect(0, "sync")
        #expect(try await shared.queue().isEmpty)
        let checker = try await workspace.store("checker-\(UUID().uuidString.prefix(8))").initialise()
        try await checker.expect(0, "refresh")
        let onServer = try await checker.expect(0, "list", "todos").json().arrayValue ?? []
        let local = try await shared.expect(0, "list", "todos").json().arrayValue ?? []
        var byTag: [String: [JSONValue]] = [:]
        for record in onServer { byTag[record["tag"]?.stringValue ?? "", default: []].append(record) }
        for editor in editors {
            for n in 1...edits {
                tally.editsChecked += 2
                let records = byTag["\(editor)-\(n)"] ?? []
                if records.isEmpty { tally.lost += 2 }
                if records.count > 1 { tally.duplicated += records.count - 1 }
                if let record = records.first, record["n"]?.intValue != Int64(n) { tally.lost += 1 }
            }
        }
        tally.missed += Set(local).symmetricDifference(Set(onServer)).count
    }
}
