import Foundation
import OfflineStore
import OfflineStoreTesting
import Testing

/// Client reset, per-collection reset, "server lost its data", user partitions and
/// local-only collections (SPEC §8, §10).
@Suite struct ResetAndPartitionTests {
    /// Empties the server: the in-memory server forgets everything; on Kinto the collection is deleted.
    static func wipe(_ server: any SyncHarness) async throws {
        if let memory = server as? MemoryHarness { memory.memory.wipe(); return }
        let kinto = try #require(server as? KintoHarness)
        let url = kinto.base.appendingPathComponent("buckets/\(kinto.bucket)/collections/todos")
        let reply = try await URLSessionTransport().send(HTTPRequest(method: "DELETE", url: url,
                                                                     headers: [("Authorization", KintoHarness.auth)]))
        #expect(reply.status == 200)
    }

    @Test(arguments: BackendKind.available)
    func aServerThatLostItsDataIsReportedAndLocalDataKept(_ kind: BackendKind) async throws {
        let (server, store, dir) = try await Harness.store(kind)
        defer { _ = dir }
        let todos = store.collection("todos")
        try await todos.create(["id": "a", "title": "A"])
        try await todos.create(["id": "b", "title": "B"])
        try await store.sync()
        try await Self.wipe(server)

        let full = await #expect(throws: OfflineStoreError.self) { try await store.refresh(full: true) }
        #expect(full?.code == .serverLostData)
        let reset = await #expect(throws: OfflineStoreError.self) { try await store.resyncFromServer() }
        #expect(reset?.code == .serverLostData)
        #expect(try todos.count() == 2)
        #expect(try todos.object("a")?.state == .synced)
    }

    @Test(arguments: BackendKind.available)
    func clientResetReadsEverythingAgainAndKeepsPendingEdits(_ kind: BackendKind) async throws {
        let (server, store, dir) = try await Harness.store(kind)
        defer { _ = dir }
        let todos = store.collection("todos")
        try await todos.create(["id": "a", "title": "A"])
        try await todos.create(["id": "b", "title": "B"])
        try await store.sync()
        try await todos.patch("a", ["title": "edited offline"])
        try await server.serverPut("todos", "c", ["title": "new on the server"])

        let report = try await store.resyncFromServer()
        #expect(report.pulled >= 2)                       // b and c at least (a is kept as an edit)
        #expect(try todos.find("a")?["title"] == "edited offline")
        #expect(try todos.find("c")?["title"] == "new on the server")
        #expect(try store.queueCount() == 1)
        try await store.flush()
        #expect(try await server.serverGet("todos", "a")?["title"] == "edited offline")

        try await todos.patch("b", ["title": "to be dropped"])
        try await store.resyncFromServer(keepingPendingEdits: false)
        #expect(try store.queueCount() == 0)
        #expect(try todos.find("b")?["title"] == "B")
        #expect(try todos.count() == 3)
    }

    @Test func resetCollectionDropsOnlyThatCollection() async throws {
        let backend = InMemoryBackend()
        try await withTemporaryStore(configuration: .with { $0.writeMode = .deferred }, backend: backend,
                                     collections: [CollectionDescriptor("todos"), CollectionDescriptor("notes"),
                                                   CollectionDescriptor("drafts", localOnly: true)]) { store in
            try await store.collection("todos").create(["id": "t"])
            try await store.collection("notes").create(["id": "n"])
            try await store.sync()
            try await store.resetCollection("todos")
            #expect(try store.collection("todos").count() == 0)
            #expect(try store.collection("notes").count() == 1)
            let localOnly = await #expect(throws: OfflineStoreError.self) { try await store.resetCollection("drafts") }
            #expect(localOnly?.code == .invalidOperation)
            try await store.refresh()
            #expect(try store.collection("todos").find("t") == ["id": "t"])
        }
    }

    @Test(.liveServer) func fullResetAndLogoutForgetsDataQueueAndCredentials() async throws {
        let session = AuthSession()
        let backend = try KintoServer.backend(auth: .session(session))
        try await withTemporaryStore(configuration: .with { $0.writeMode = .deferred }, backend: backend,
                                     collections: [CollectionDescriptor("todos")]) { store in
            try await store.login(.basic(user: "alice", password: "secret"))
            try await store.collection("todos").create(["id": "a"])
            try await store.sync()
            try await store.collection("todos").create(["id": "b"])
            try await store.fullResetAndLogout()
            #expect(store.isLoggedIn == false && session.isLoggedIn == false)
            #expect(try store.collection("todos").count() == 0)
            #expect(try store.queueCount() == 0 && store.lastSync() == nil)
        }
    }

    @Test(.liveServer) func logoutAndLoginAsAnotherUserNeverShowsTheFirstUsersData() async throws {
        let url = try KintoServer.url()
        let prefix = KintoServer.uniqueName("p")
        try await withTemporaryDirectory { directory in
            let partitions = UserPartitions(
                directory: directory.url, configuration: .with { $0.writeMode = .deferred },
                collections: [CollectionDescriptor("todos"), CollectionDescriptor("drafts", localOnly: true)]
            ) { session, user in
                KintoServer.backend(server: url, bucket: "\(prefix)-\(user)", auth: .session(session), timeout: .seconds(30),
                                    pageSize: 10_000)
            }
            let alice = try await partitions.login(.basic(user: "alice", password: "secret"))
            try await alice.collection("todos").create(["id": "a1", "title": "alice's"])
            try await alice.collection("drafts").create(["id": "d1", "text": "alice's draft"])
            try await alice.sync()
            try await alice.collection("todos").create(["id": "a2", "title": "alice's unsent"])
            try partitions.logout()

            let bob = try await partitions.login(.basic(user: "bob", password: "hunter2"))
            #expect(partitions.currentUser == "bob")
            #expect(try bob.collection("todos").count() == 0)
            #expect(try bob.collection("drafts").count() == 0)
            #expect(try bob.queueCount() == 0 && bob.conflicts().isEmpty)
            try await bob.sync()
            #expect(try bob.collection("todos").count() == 0)
            try partitions.logout()

            let again = try await partitions.login(.basic(user: "alice", password: "secret"))
            #expect(try again.collection("todos").count() == 2)
            #expect(try again.queueCount() == 1)
            try partitions.logout()
        }
    }

    @Test func localOnlyCollectionsNeverTouchTheNetwork() async throws {
        let backend = InMemoryBackend()
        try await withTemporaryStore(backend: backend, collections: [CollectionDescriptor("drafts", localOnly: true)]) { store in
            let drafts = store.collection("drafts")
            try await drafts.create(["id": "d", "text": "x"])     // immediate mode: synced collections would push now
            try await drafts.patch("d", ["text": "y"])
            try await store.sync()
            try await store.refresh(full: true)
            try await drafts.destroy("d")
            let touched = backend.requestLog.contains { request in
                switch request {
                case .push(let c, _), .pull(let c, _, _), .prepare(let c): c == "drafts"
                case .ping: false
                }
            }
            #expect(!touched)
            #expect(backend.pushCallCount == 0 && backend.pullCallCount == 0)
        }
    }
}
