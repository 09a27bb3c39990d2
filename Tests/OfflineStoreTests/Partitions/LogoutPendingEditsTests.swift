import Foundation
import OfflineStoreTesting
import Testing
@testable import OfflineStore

/// A logout that meets edits not sent yet (``PendingEditsAtLogout``): refused unless told to
/// keep or discard them; with ``UserPartitions`` on the real Kinto, another user never sees
/// the first user's objects nor sends their queue, and the first user's queue goes at their
/// next login (Docs/Auth.md, "Sharing and lost access").
@Suite(.timeLimit(.minutes(3))) struct LogoutPendingEditsTests {
    @Test(arguments: [
        (PendingEditsAtLogout.refuse, 0, LogoutRule.signOut), (.refuse, 3, .refuse(pending: 3)),
        (.keep, 0, .signOut), (.keep, 3, .signOut),
        (.discard, 0, .signOut), (.discard, 3, .discardThenSignOut),
    ] as [(PendingEditsAtLogout, Int, LogoutRule)])
    func decision(choice: PendingEditsAtLogout, pending: Int, expected: LogoutRule) {
        #expect(LogoutRule.decide(choice, pending: pending) == expected)
    }

    @Test func aSingleStoreRefusesKeepsOrDiscardsItsPendingEdits() async throws {
        try await withTemporaryStore(server: InMemoryBackend(),
                                     collections: [CollectionDescriptor("todos")]) { store, backend in
            let todos = store.collection("todos")
            try await todos.create(["id": "t1", "title": "synced"])
            try await store.sync()
            try await todos.patch("t1", ["title": "edited"])
            try await todos.create(["id": "t2", "title": "new"])

            let refused = await #expect(throws: OfflineStoreError.self) { try await store.logout(pendingEdits: .refuse) }
            #expect(refused?.code == .pendingEdits)
            #expect(refused?.localizedDescription == "Some of your changes have not been sent yet.")
            #expect(try store.queueCount() == 2)
            #expect(try todos.find("t1")?["title"] == "edited")

            try await store.logout(pendingEdits: .keep)
            #expect(try store.queueCount() == 2)

            try await store.logout(pendingEdits: .discard)
            #expect(try store.queueCount() == 0)
            #expect(try todos.find("t1")?["title"] == "synced")   // back to the server copy
            #expect(try todos.find("t2") == nil)                  // the server never had it
            #expect(try await store.sync().pushed == 0)
            #expect(backend.allRecords(collection: "todos").keys.sorted() == ["t1"])
            try await store.logout(pendingEdits: .refuse)          // nothing pending: signs out
        }
    }

    @Test(.liveServer) func anotherUserNeverSeesNorSendsTheFirstUsersQueueWhichGoesAtTheirNextLogin() async throws {
        let base = try KintoServer.url()
        let bucket = KintoServer.uniqueName("switch")
        // One bucket every signed-in user may write: were alice's queue sent with bob's
        // credentials, the server would take it, so the test would see it.
        try await withTemporaryDirectory { directory in
            let partitions = UserPartitions(directory: directory.url, configuration: .deferred,
                                            collections: [CollectionDescriptor("todos")]) { session, _ in
                KintoServer.backend(server: base, bucket: bucket, auth: .session(session), timeout: .seconds(30),
                                    shareBucketWithAuthenticatedUsers: true)
            }
            defer { try? partitions.close() }
            let alice = try await partitions.login(.basic(user: "alice", password: "secret"))
            try await alice.collection("todos").create(["id": "a0", "title": "alice's, synced"])
            try await alice.sync()
            try await alice.collection("todos").create(["id": "a1", "title": "alice's, not sent"])

            let refused = await #expect(throws: OfflineStoreError.self) { try await partitions.logout(pendingEdits: .refuse) }
            #expect(refused?.code == .pendingEdits)
            #expect(partitions.currentUser == "alice")
            try await partitions.logout(pendingEdits: .keep)
            #expect(partitions.currentUser == nil)

            let bob = try await partitions.login(.basic(user: "bob", password: "secret"))
            #expect(try bob.collection("todos").count() == 0)     // none of alice's objects, before any sync
            #expect(try bob.queueCount() == 0)
            try await bob.collection("todos").create(["id": "b1", "title": "bob's"])
            let bobSync = try await bob.sync()
            #expect(bobSync.pushed == 1)
            #expect(try bob.collection("todos").find("a1") == nil)  // never sent, so not even on the server
            let server = KintoServer.backend(server: base, bucket: bucket, auth: .basic(user: "alice", password: "secret"))
            #expect(try await server.fetch(collection: "todos", id: "a1") == nil)
            try await partitions.logout(pendingEdits: .refuse)      // nothing pending

            let aliceAgain = try await partitions.login(.basic(user: "alice", password: "secret"))
            #expect(try aliceAgain.queueEntries().map(\.objectID) == ["a1"])
            let aliceSync = try await aliceAgain.sync()
            #expect(aliceSync.pushed == 1)
            #expect(try await server.fetch(collection: "todos", id: "a1")?.record?["title"] == "alice's, not sent")
            #expect(try aliceAgain.collection("todos").find("b1")?["title"] == "bob's")   // the shared bucket's other record

            // Discarding: the unsent edit goes, the object is back to the server's copy.
            try await aliceAgain.collection("todos").patch("a0", ["title": "changed my mind"])
            try await partitions.logout(pendingEdits: .discard)
            let aliceLast = try await partitions.login(.basic(user: "alice", password: "secret"))
            #expect(try aliceLast.queueCount() == 0)
            #expect(try aliceLast.collection("todos").find("a0")?["title"] == "alice's, synced")
        }
    }
}
