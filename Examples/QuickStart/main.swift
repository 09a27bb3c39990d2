import Foundation
import OfflineStore

struct Todo: SyncModel {
    static let collectionName = "todos"   // the collection's name, locally and on the server
    var id: String
    var title: String
    var done = false
    var due: Date?
}

// The store lives in the app's support directory; the server is a Kinto.
let folder = try FileManager.default
    .url(for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
    .appendingPathComponent("QuickStart", isDirectory: true)
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
guard let server = URL(string: "http://127.0.0.1:8888/v1") else { fatalError("not a URL") }
let kinto = KintoBackend(configuration: .init(
    serverURL: server, bucket: "app", auth: .basic(user: "alice", password: "secret")))
let store = try ObjectStore(path: folder.appendingPathComponent("app.sqlite").path, backend: kinto)
try store.register(Todo.self, conflictPolicy: .merge)

let todos = store.collection(Todo.self)
try await todos.save(Todo(id: "milk", title: "Buy milk"))   // returns once stored locally; sent in the background
if var milk = try todos.find("milk") {
    milk.done = true
    try await todos.save(milk)
}
let open = try todos.findAll(where: \.done == false, orderBy: [.ascending(\.title)])   // runs in SQLite
print("open:", open.map(\.title))

do {
    let report = try await store.sync()                      // flush the queue, then refresh
    print("pushed", report.pushed, "pulled", report.pulled, "conflicts", report.conflicts)
} catch let error as OfflineStoreError {
    print(error.localizedDescription)                          // e.g. "The server could not be reached."; edits stay queued
}
for conflict in try todos.conflicts() {                      // base, local and server copies as Todo
    try todos.resolve(conflict, with: try conflict.merged(choosing: [\.title: .server]))
}
try store.close()
