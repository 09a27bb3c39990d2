import Foundation
import OfflineStore

// The store is one SQLite file at an absolute path; Application Support suits an app.
let directory = try FileManager.default.url(for: .applicationSupportDirectory, in: .userDomainMask,
                                            appropriateFor: nil, create: true)
let path = directory.appendingPathComponent("app.sqlite").path

guard let serverURL = URL(string: "http://127.0.0.1:8888/v1") else { fatalError("not a URL") }
let kinto = KintoBackend(configuration: .init(
    serverURL: serverURL,
    bucket: "app",
    auth: .basic(user: "alice", password: "secret")))
let store = try ObjectStore(path: path, backend: kinto)
try store.register(CollectionDescriptor("todos", conflictPolicy: .merge))

let todos = store.collection("todos")
let todo = try await todos.create(["title": "Buy milk", "done": false])   // local + queued (sent at once when online)
if let id = todo["id"]?.stringValue {
    try await todos.patch(id, ["done": true])
}

do {
    let report = try await store.sync()          // flush, then refresh
    print(report.pushed, report.pulled, report.conflicts)
} catch let error as OfflineStoreError {
    print(error.localizedDescription)            // e.g. "The server could not be reached."; edits stay queued
}

for conflict in try store.conflicts() {          // base, local and server copies
    try store.resolve(conflict.collection, id: conflict.id, with: .keepLocal)
}
try store.close()
