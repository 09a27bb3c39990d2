import Foundation
import OfflineStore
import OfflineStoreTesting
import Testing

/// The app partition (RhoConnect's partition 'app'): data shared by every user of the
/// device survives logout and a login as someone else, while user data never leaks.
@Suite struct AppPartitionTests {
    /// Partitions over the real Kinto: a bucket per user, one shared bucket for the app partition.
    static func partitions(_ directory: URL, prefix: String) throws -> UserPartitions {
        let url = try KintoServer.url()
        return UserPartitions(
            directory: directory, configuration: .with { $0.writeMode = .deferred },
            collections: [CollectionDescriptor("todos"), CollectionDescriptor("catalog", partition: .app),
                          CollectionDescriptor("drafts", partition: .local)],
            appBackend: { session in
                KintoServer.backend(server: url, bucket: "\(prefix)-shared", auth: .session(session), timeout: .seconds(30),
                                    pageSize: 10_000, shareBucketWithAuthenticatedUsers: true)
            }
        ) { session, user in
            KintoServer.backend(server: url, bucket: "\(prefix)-\(user)", auth: .session(session), timeout: .seconds(30), pageSize: 10_000)
        }
    }

    @Test(.liveServer) func appDataStaysAcrossUsersWhileUserDataNeverLeaks() async throws {
        let prefix = KintoServer.uniqueName("ap")
        try await withTemporaryDirectory { directory in
            let partitions = try Self.partitions(directory.url, prefix: prefix)
            defer { try? partitions.close() }
            let alice = try await partitions.login(.basic(user: "alice", password: "secret"))
            try await partitions.collection("catalog").create(["id": "c1", "name": "Widget"])
            try await partitions.collection("todos").create(["id": "a1", "title": "alice's"])
            try await alice.sync()
            let aliceApp = try await partitions.appStore().sync()
            #expect(aliceApp.pushed == 1)
            let notInUserFile = #expect(throws: OfflineStoreError.self) { try alice.collection("catalog").count() }
            #expect(notInUserFile?.code == .unknownCollection)             // app data is not in the user's file
            try partitions.logout()

            // Signed out: the catalog is still readable, user collections are not.
            #expect(try partitions.collection("catalog").find("c1")?["name"] == "Widget")
            #expect(try partitions.appStore().isLoggedIn == false)
            let signedOut = #expect(throws: OfflineStoreError.self) { try partitions.collection("todos") }
            #expect(signedOut?.code == .invalidOperation)

            let bob = try await partitions.login(.basic(user: "bob", password: "hunter2"))
            #expect(try partitions.collection("catalog").count() == 1)    // before any sync
            #expect(try partitions.collection("todos").count() == 0)
            #expect(try bob.queueCount() == 0)
            try await partitions.collection("catalog").create(["id": "c2", "name": "Gadget"])
            let bobApp = try await partitions.appStore().sync()           // with bob's credentials, on the shared bucket
            #expect(bobApp.pushed == 1 && bobApp.failed == 0)
            try await bob.sync()
            #expect(try bob.collection("todos").count() == 0)
            try partitions.logout()

            _ = try await partitions.login(.basic(user: "alice", password: "secret"))
            try await partitions.appStore().sync()
            #expect(try partitions.collection("catalog").findAll().compactMap { $0["id"]?.stringValue }.sorted() == ["c1", "c2"])
            #expect(try partitions.collection("todos").count() == 1)
        }
    }

    @Test(.liveServer) func logoutRemovesAppDataOnlyWhenAskedAndTheServerKeepsIt() async throws {
        let prefix = KintoServer.uniqueName("ar")
        try await withTemporaryDirectory { directory in
            let partitions = try Self.partitions(directory.url, prefix: prefix)
            defer { try? partitions.close() }
            _ = try await partitions.login(.basic(user: "alice", password: "secret"))
            try await partitions.collection("catalog").create(["id": "c1", "name": "Widget"])
            try await partitions.appStore().sync()
            try await partitions.collection("drafts").create(["id": "d1"])
            try await partitions.logout(removingAppData: false)
            #expect(try partitions.collection("catalog").count() == 1)

            _ = try await partitions.login(.basic(user: "alice", password: "secret"))
            try await partitions.logout(removingAppData: true)
            #expect(try partitions.collection("catalog").count() == 0)
            #expect(try partitions.appStore().queueCount() == 0)

            let bob = try await partitions.login(.basic(user: "bob", password: "hunter2"))
            #expect(try partitions.collection("drafts").count() == 0)      // local data is per user
            let report = try await partitions.appStore().sync()
            #expect(report.pulled == 1)
            #expect(try partitions.collection("catalog").find("c1")?["name"] == "Widget")
            _ = bob
        }
    }

    @Test func declarationsAreCheckedAndPartitionsRoundTrip() async throws {
        for partition in CollectionPartition.allCases {
            let descriptor = CollectionDescriptor("x", partition: partition)
            #expect(descriptor.partition == partition)
            #expect(descriptor.isLocalOnly == (partition == .local))
        }
        try await withTemporaryDirectory { directory in
            let partitions = UserPartitions(directory: directory.url, collections: [CollectionDescriptor("todos")]) { _, _ in
                InMemoryBackend()
            }
            let unknown = #expect(throws: OfflineStoreError.self) { try partitions.collection("nope") }
            #expect(unknown?.code == .invalidOperation)
            let noApp = #expect(throws: OfflineStoreError.self) { try partitions.appStore() }
            #expect(noApp?.code == .configuration)
            #expect(!FileManager.default.fileExists(atPath: partitions.appPath))
        }
    }
}
