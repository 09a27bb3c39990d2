import Foundation
import Observation
import OfflineStore

struct Todo: SyncModel {
    static let collectionName = "todos"
    var id: String
    var title: String
    var done = false
}

/// Shows the open to-dos now and after every change, outside SwiftUI.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
final class OpenTodos {
    let live: LiveQuery<Todo>   // LiveQuery is isolated to the main actor: so is its owner
    private(set) var shown: [String] = []

    init(_ todos: ModelCollection<Todo>) {
        live = LiveQuery(todos, where: \.done == false, orderBy: [.ascending(\.title)])
        track()
    }

    private func track() {
        withObservationTracking {
            shown = live.models.map(\.title)   // the properties read here are tracked
        } onChange: {
            // Runs once, before the change lands, on the changing thread: read the new
            // value on the main actor, and track again.
            Task { @MainActor [weak self] in self?.track() }
        }
    }
}

if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
    let store = try ObjectStore(path: FileManager.default.temporaryDirectory.appendingPathComponent("observing.sqlite").path)
    try store.register(Todo.self, localOnly: true)
    let todos = store.collection(Todo.self)
    let open = OpenTodos(todos)
    try await todos.save(Todo(id: "milk", title: "Buy milk"))
    while open.shown.isEmpty { await Task.yield() }   // the live query delivers on the main actor
    print(open.shown)   // ["Buy milk"]
    try store.close()
}
