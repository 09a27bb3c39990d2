// Two devices share a to-do list through a Kinto server, using only the typed API:
// offline edits, sync, a conflict resolved field by field, and a live query printing
// what it sees. Usage: todo-sync-example [KINTO_URL]   (default http://127.0.0.1:8888/v1)
// Exits 0 when every step ended as expected, 1 otherwise.
import Foundation
import OfflineStore

struct Todo: SyncModel, Equatable {
    static let collectionName = "todos"
    var id: String
    var title: String
    var done = false
    var due: Date?
}

func check(_ condition: Bool, _ what: String) {
    print(condition ? "ok: \(what)" : "FAILED: \(what)")
    if !condition { exit(1) }
}

let arguments = CommandLine.arguments.dropFirst()
guard let serverURL = URL(string: arguments.first ?? "http://127.0.0.1:8888/v1") else {
    print("usage: todo-sync-example [KINTO_URL]")
    exit(64)
}
let bucket = "todo-sync-" + UUID().uuidString.lowercased().prefix(8)
let folder = FileManager.default.temporaryDirectory.appendingPathComponent(bucket, isDirectory: true)
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

func device(_ name: String) throws -> ObjectStore {
    let kinto = KintoBackend(configuration: .init(serverURL: serverURL, bucket: bucket,
                                                  auth: .basic(user: "alice", password: "secret")))
    let store = try ObjectStore(path: folder.appendingPathComponent("\(name).sqlite").path, backend: kinto)
    try store.register(Todo.self)   // conflicts are kept for the app to resolve
    return store
}

let phone = try device("phone")
let laptop = try device("laptop")
let phoneTodos = phone.collection(Todo.self)
let laptopTodos = laptop.collection(Todo.self)

// A live query on the phone: prints the open to-dos each time they change, until the
// final state of this walk-through shows up.
let live = Task {
    for try await open in phoneTodos.observeAll(where: \.done == false, orderBy: [.ascending(\.title)]) {
        print("live: open =", open.map(\.title))
        if open.map(\.title) == ["Buy oat milk"] { return true }
    }
    return false
}

// 1. Offline edits on the phone: stored and queued, nothing sent.
phone.setOffline(true)
try await phoneTodos.save(Todo(id: "milk", title: "Buy milk"))
try await phoneTodos.save(Todo(id: "bread", title: "Buy bread"))
try await phoneTodos.save(Todo(id: "fence", title: "Paint the fence", done: true))
check(try phoneTodos.status(of: "milk") == .pending, "offline edits are pending")

// 2. Back online: sync pushes them; the laptop pulls them.
phone.setOffline(false)
let pushed = try await phone.sync()
check(pushed.pushed == 3, "sync pushed the 3 offline edits")
_ = try await laptop.sync()
check(try laptopTodos.count() == 3, "the laptop has the 3 to-dos")

// 3. Both change "milk" while apart: the laptop renames it, the phone renames it and marks it done.
try await laptopTodos.save(Todo(id: "milk", title: "Buy oat milk"))   // returns once stored; sent in the background
_ = try await laptop.sync()                                             // make sure it reached the server before the phone syncs
phone.setOffline(true)
try await phoneTodos.save(Todo(id: "milk", title: "Buy milk (2 l)", done: true))
try await phoneTodos.delete("bread")
phone.setOffline(false)
let report = try await phone.sync()
check(report.conflicts == 1, "the phone's sync met one conflict")

// 4. Resolve it field by field: the laptop's title, the phone's "done".
guard let conflict = try phoneTodos.conflicts().first else {
    check(false, "the conflict is listed")
    exit(1)
}
for change in conflict.changes {
    print("conflict field \(change.field): base \(change.base?.description ?? "-"), phone \(change.local?.description ?? "-"), laptop \(change.server?.description ?? "-")")
}
let merged = try conflict.merged(choosing: [\.title: .server, \.done: .local])
try phoneTodos.resolve(conflict, with: merged)
_ = try await phone.sync()
check(try phoneTodos.conflicts().isEmpty, "no conflict left")

// 5. The laptop sees the merged result; undo "done" there so the live query shows it.
_ = try await laptop.sync()
check(try laptopTodos.find("milk") == Todo(id: "milk", title: "Buy oat milk", done: true), "the laptop has the merged to-do")
check(try laptopTodos.find("bread") == nil, "the phone's delete reached the laptop")
try await laptopTodos.save(Todo(id: "milk", title: "Buy oat milk", done: false))
_ = try await laptop.sync()
_ = try await phone.sync()
check(try await live.value, "the live query saw the final list")
try phone.close()
try laptop.close()
print("done")
