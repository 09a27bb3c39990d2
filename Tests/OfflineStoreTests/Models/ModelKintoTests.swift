import Foundation
import OfflineStore
import Testing

/// The typed API against the real Kinto (`KINTO_URL`, started by scripts/test; the tests
/// fail, never skip, without it).
extension Models {
    @Suite("Typed models on Kinto", .timeLimit(.minutes(5)))
    struct ModelKintoTests {
        /// Each edit awaits the server, so a second client that syncs right after sees it.
        static let awaiting = ObjectStore.Configuration.with { $0.writeMode = .awaitingServer }

        /// The issue's snippet, as written, with the key-path query filled in.
        @Test(.liveServer) func theIssueSnippetRunsAsWritten() async throws {
            let bucket = KintoServer.uniqueName("b")
            try await withTemporaryDirectory { directory in
                let store = try ObjectStore(path: directory.path("a.sqlite"), configuration: Self.awaiting,
                                            backend: try KintoServer.backend(bucket: bucket))
                defer { try? store.close() }
                let other = try ObjectStore(path: directory.path("b.sqlite"), configuration: Self.awaiting,
                                            backend: try KintoServer.backend(bucket: bucket))
                defer { try? other.close() }
                try other.register(Todo.self, conflictPolicy: .merge)

                try store.register(Todo.self, conflictPolicy: .merge)        // same options as CollectionDescriptor
                let todos = store.collection(Todo.self)                       // a typed collection
                let milk = try await todos.save(Todo(id: "milk", title: "Buy milk"))
                let found: Todo? = try todos.find("milk")
                #expect(found == milk)
                _ = try await other.sync()
                #expect(try other.collection(Todo.self).find("milk") == milk)   // it reached the server
                try await todos.delete("milk")
                #expect(try todos.find("milk") == nil)

                // A conflict: both sides change the same field, which .merge cannot settle.
                try await todos.save(Todo(id: "bread", title: "Buy bread"))
                _ = try await other.sync()
                try await other.collection(Todo.self).save(Todo(id: "bread", title: "Buy rye bread"))
                store.setOffline(true)
                try await todos.save(Todo(id: "bread", title: "Buy white bread", done: true))
                store.setOffline(false)
                _ = try await store.sync()

                for try await open in todos.observeAll(where: \.done == false) {   // AsyncSequence of [Todo]
                    #expect(open.map(\.id) == [])
                    break
                }
                let conflicts = try todos.conflicts()          // [ModelConflict<Todo>]: base, local, server as Todo?
                try #require(conflicts.count == 1)
                #expect(conflicts[0].base?.title == "Buy bread")
                #expect(conflicts[0].local?.title == "Buy white bread")
                #expect(conflicts[0].server?.title == "Buy rye bread")
                let merged = try conflicts[0].merged(choosing: [\.title: .server])
                try todos.resolve(conflicts[0], with: merged)  // a Todo, or .keepLocal / .keepServer
                _ = try await store.sync()

                _ = try await other.sync()
                #expect(try other.collection(Todo.self).find("bread") == Todo(id: "bread", title: "Buy rye bread", done: true))
                #expect(try todos.conflicts().isEmpty)
            }
        }

        @Test(.liveServer) func typedQueriesAndUnknownFieldsOnKinto() async throws {
            let bucket = KintoServer.uniqueName("b")
            try await withTemporaryDirectory { directory in
                let json = try ObjectStore(path: directory.path("json.sqlite"), configuration: Self.awaiting,
                                            backend: try KintoServer.backend(bucket: bucket))
                defer { try? json.close() }
                try json.register(CollectionDescriptor("todos"))
                // A newer client writes a field this model does not know.
                try await json.collection("todos").save(["id": "paint", "title": "Paint", "done": false, "color": "red"])

                let store = try ObjectStore(path: directory.path("typed.sqlite"), configuration: Self.awaiting,
                                            backend: try KintoServer.backend(bucket: bucket))
                defer { try? store.close() }
                try store.register(Todo.self)
                let todos = store.collection(Todo.self)
                _ = try await store.sync()
                try await todos.save(Todo(id: "fence", title: "Fix the fence", due: date(1_800_000_000)))
                var paint = try #require(try todos.find("paint"))
                paint.done = true
                try await todos.save(paint)

                #expect(try todos.findAll(where: \.done == true).map(\.id) == ["paint"])
                #expect(try todos.findAll(where: \.due != nil).map(\.id) == ["fence"])
                #expect(try todos.findAll(orderBy: [.descending(\.title)]).map(\.id) == ["paint", "fence"])

                _ = try await json.sync()
                #expect(try json.collection("todos").find("paint") == ["id": "paint", "title": "Paint", "done": true, "color": "red"])
                #expect(try json.collection("todos").find("fence")?["due"] == "2027-01-15T08:00:00.000Z")
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
        @MainActor
        @Test(.liveServer) func aLiveQueryFollowsAnotherDeviceThroughKinto() async throws {
            let bucket = KintoServer.uniqueName("b")
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let phone = try ObjectStore(path: directory.path("phone.sqlite"), configuration: Self.awaiting,
                                            backend: try KintoServer.backend(bucket: bucket))
            defer { try? phone.close() }
            let laptop = try ObjectStore(path: directory.path("laptop.sqlite"), configuration: Self.awaiting,
                                            backend: try KintoServer.backend(bucket: bucket))
            defer { try? laptop.close() }
            try phone.register(Todo.self)
            try laptop.register(Todo.self)

            let live = LiveQuery(phone.collection(Todo.self), where: \.done == false, orderBy: [.ascending(\.title)])
            try await waitUntil(live) { $0.isLoaded }
            #expect(live.models.isEmpty)
            try await laptop.collection(Todo.self).save(Todo(id: "milk", title: "Buy milk"))   // sent at once
            _ = try await phone.sync()                                                         // the refresh brings it
            try await waitUntil(live) { $0.models.map(\.id) == ["milk"] }
            #expect(live.statuses["milk"] == .synced)
            phone.setOffline(true)
            try await phone.collection(Todo.self).save(Todo(id: "bread", title: "Buy bread"))  // a local edit, queued
            try await waitUntil(live) { $0.models.count == 2 }
            #expect(live.statuses == ["bread": .pending, "milk": .synced])
        }
    }
}
