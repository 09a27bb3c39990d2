// crash-writer lifecycle <store-path>: the order of suspension and resumption that
// Docs/ApplePlatforms.md's scene delegate and background task (BackgroundSyncExample)
// follow, run in a process of its own: GRDB's suspension notifications reach every database
// of a process, so the test process cannot post them without stopping other tests' stores.
//
// The store syncs with an in-memory server. Each step prints `<step> <outcome>`, the
// outcome being `ok`, `true`/`false` or the code of the error the step met:
//
//     scene-suspended-edit           an edit after the scene's suspend(postingDatabaseNotification: true)
//     resumed-without-notification-sync, -edit
//                                    after resume() alone (the order of the earlier example)
//     background-run                 BackgroundSync.run: resumes both, syncs, suspends both
//     server-records                 how many records the server holds then
//     after-background-edit          an edit once the background run is over
//     foreground-edit                after resume(postingDatabaseNotification: true)
//
// Exit status 0, or 1 when the store cannot be opened.

import BackgroundSyncExample
import Foundation
import OfflineStore
import OfflineStoreTesting

enum LifecycleRun {
    /// Runs the steps, printing one line each; the caller exits. It returns rather than
    /// exiting itself: LeakSanitizer reports a string an async function still holds when
    /// the process exits inside it.
    static func run(_ arguments: [String]) async {
        guard arguments.count == 1 else { fail("usage: crash-writer lifecycle <store-path>", status: 64) }
        let server = InMemoryBackend()
        let store: ObjectStore
        do {
            var configuration = ObjectStore.Configuration()
            configuration.writeMode = .deferred
            store = try ObjectStore(path: arguments[0], configuration: configuration, backend: server)
            try store.register(CollectionDescriptor("todos"))
            try await store.collection("todos").create(["id": "before"])
        } catch {
            fail("\(error)")
        }
        let todos = store.collection("todos")

        await store.suspend(postingDatabaseNotification: true)
        say("scene-suspended-edit \(await outcome { try await todos.create(["id": "while-suspended"]) })")

        store.resume()
        say("resumed-without-notification-sync \(await outcome { _ = try await store.sync(within: .seconds(25)) })")
        say("resumed-without-notification-edit \(await outcome { try await todos.create(["id": "without-notification"]) })")
        await store.suspend()

        say("background-run \(await BackgroundSync.run(store, within: .seconds(25)))")
        say("server-records \(server.allRecords(collection: "todos").keys.sorted().joined(separator: ","))")
        say("after-background-edit \(await outcome { try await todos.create(["id": "after-background"]) })")

        store.resume(postingDatabaseNotification: true)
        say("foreground-edit \(await outcome { try await todos.create(["id": "foreground"]) })")
        try? store.close()
    }

    /// `ok`, or the code of the error `step` threw.
    static func outcome(_ step: () async throws -> Void) async -> String {
        do {
            try await step()
            return "ok"
        } catch let error as OfflineStoreError {
            return "\(error.code)"
        } catch {
            return "unexpected(\(error))"
        }
    }
}
