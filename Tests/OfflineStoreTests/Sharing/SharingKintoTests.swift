import Foundation
import OfflineStore
import Testing

/// Sharing and lost access on the real Kinto with two users and real permissions
/// (Docs/Auth.md, "Sharing and lost access"): alice owns the bucket, bob syncs in it.
@Suite(.liveServer, .timeLimit(.minutes(5))) struct SharingKintoTests {
    /// Plain HTTP to Kinto as one user: what the owner does from another client.
    struct KintoUser {
        let name: String
        let base: URL
        let http = URLSessionTransport()

        func send(_ method: String, _ path: String, _ body: JSONValue? = nil) async throws -> HTTPResponse {
            var headers = [("Authorization", "Basic " + Data("\(name):secret".utf8).base64EncodedString())]
            if body != nil { headers.append(("Content-Type", "application/json")) }
            return try await http.send(HTTPRequest(method: method, url: base.appendingPathComponent(path), headers: headers,
                                                   body: body.map { Data($0.serialized().utf8) }))
        }

        /// Kinto's user id for this user (`basicauth:…`), as permissions name it.
        func id() async throws -> String {
            let root = try JSONValue(parsing: try await send("GET", "/").body)
            return try #require(root["user"]?["id"]?.stringValue)
        }

        /// Creates or replaces an object with these permissions; fails the test on an error status.
        func put(_ path: String, _ body: JSONValue) async throws {
            let reply = try await send("PUT", path, body)
            #expect((200..<300).contains(reply.status), "PUT \(path): HTTP \(reply.status)")
        }
    }

    @Test func bobSyncsInAlicesBucketAsFarAsHisPermissionsAllowAndKeepsEveryRefusedEdit() async throws {
        let base = try KintoServer.url()
        let alice = KintoUser(name: "alice", base: base), bob = KintoUser(name: "bob", base: base)
        let bobID = try await bob.id()
        let bucket = KintoServer.uniqueName("share")
        let collections = "/buckets/\(bucket)/collections"
        try await alice.put("/buckets/\(bucket)", ["permissions": ["collection:create": [.string(bobID)]]])
        try await alice.put("\(collections)/shared", ["permissions": ["write": [.string(bobID)]]])
        try await alice.put("\(collections)/news", ["permissions": ["read": [.string(bobID)]]])
        try await alice.put("\(collections)/news/records/n1", ["data": ["title": "hello"]])
        try await alice.put("\(collections)/shared/records/s2", ["data": ["t": "alice's"]])
        try await alice.put("\(collections)/feed", ["permissions": ["read": [.string(bobID)]]])
        try await alice.put("\(collections)/feed/records/f1", ["data": ["title": "read me"]])
        try await alice.put("\(collections)/secret", ["data": [:]])

        let backend = try KintoServer.backend(bucket: bucket, auth: .basic(user: "bob", password: "secret"))
        let names = ["feed", "mine", "news", "secret", "shared"]
        try await withTemporaryStore(configuration: .deferred, backend: backend,
                                     collections: names.map { CollectionDescriptor($0) }) { store in
            let events = store.syncEvents()
            try await store.collection("secret").create(["id": "x1", "t": "not allowed"])
            try await store.collection("shared").create(["id": "s1", "t": "from bob"])
            try await store.collection("mine").create(["id": "m1", "t": "bob's own"])

            // One sync: the refused collection does not hold back the others.
            let report = try await store.sync()
            #expect(report.pushed == 2)
            #expect(Set(report.refused.map(\.collection)) == ["secret"])
            #expect(Set(report.refused.map(\.direction)) == [.push, .pull])
            #expect(report.refused.allSatisfy { $0.status == 403 })
            #expect(try store.collection("news").find("n1")?["title"] == "hello")
            #expect(try store.queueEntries(collection: "secret").map(\.objectID) == ["x1"])   // kept, still pending
            let refusedEvent = try await firstRefusal(in: events)
            #expect(refusedEvent.collection == "secret")

            // The read-only collection refuses a local edit at edit time; nothing changes.
            let refused = await #expect(throws: OfflineStoreError.self) {
                try await store.collection("news").patch("n1", ["title": "mine now"])
            }
            #expect(refused?.code == .forbidden)
            #expect(try store.collection("news").find("n1")?["title"] == "hello")
            #expect(try store.queueCount(state: .pending) == 1)

            // Write access withdrawn: an edit of alice's record (bob still owns s1, which he
            // created) is kept as a forbidden failed entry; the app still sees it.
            try await alice.put("\(collections)/shared", ["permissions": ["read": [.string(bobID)]]])
            try await store.collection("shared").patch("s2", ["t": "edited after revoke"])
            try await store.collection("shared").patch("s1", ["t": "bob's own, after revoke"])
            try await store.collection("mine").patch("m1", ["t": "still mine"])
            let afterRevoke = try await store.sync()
            // Kinto gives a record's creator write on it: bob's edit of s1 goes, alice's s2 does not.
            #expect(afterRevoke.pushed == 2)
            let s1 = try JSONValue(parsing: try await alice.send("GET", "\(collections)/shared/records/s1").body)
            #expect(s1["data"]?["t"] == "bob's own, after revoke")
            let failed = try store.failedEntries(collection: "shared")
            #expect(failed.map(\.objectID) == ["s2"])
            #expect(failed.first?.failure == .forbidden)
            #expect(failed.first?.status == 403)
            #expect(try store.collection("shared").find("s2")?["t"] == "edited after revoke")

            // Granted again: the next sync sees it; `retry` sends the kept edit; the read-only
            // collection becomes writable.
            try await alice.put("\(collections)/shared", ["permissions": ["write": [.string(bobID)]]])
            try await alice.put("\(collections)/news", ["permissions": ["write": [.string(bobID)]]])
            try store.retry("shared", id: "s2")
            let granted = try await store.sync()
            #expect(granted.pushed == 1)
            #expect(try store.failedEntries().isEmpty)
            let onServer = try JSONValue(parsing: try await alice.send("GET", "\(collections)/shared/records/s2").body)
            #expect(onServer["data"]?["t"] == "edited after revoke")
            try await store.collection("news").patch("n1", ["title": "bob may write"])
            #expect(try await store.sync().pushed == 1)

            // Read access withdrawn (on records bob never wrote: Kinto lets a writer keep reading
            // his own): the collection stops syncing and is reported; local copies stay (keep).
            #expect(try store.collection("feed").find("f1")?["title"] == "read me")
            try await alice.put("\(collections)/feed", ["permissions": ["read": []]])
            let lost = try await store.sync()
            #expect(lost.refused.contains { $0.collection == "feed" && $0.direction == .pull && $0.status == 403 })
            #expect(try store.collection("feed").find("f1")?["title"] == "read me")
        }
    }

    /// The first `refused` event. No deadline of its own: a wall-clock deadline shorter than
    /// the suite's time limit fails a slow run for nothing; the time limit is the hang guard.
    private func firstRefusal(in events: AsyncStream<SyncEvent>) async throws -> RefusedCollection {
        for await event in events { if case .refused(let refusal) = event { return refusal } }
        throw RefusalNeverCame()
    }

    private struct RefusalNeverCame: Error {}
}
