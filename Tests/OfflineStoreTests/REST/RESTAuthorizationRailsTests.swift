import Foundation
import OfflineStore
import Testing

/// Per-user authorization on the real Rails app (Fixtures/rails-server `notes`: everyone
/// signed in reads every note, only its owner or a user the owner granted changes it; 403
/// otherwise): a refused edit becomes a forbidden failed entry, the others go, and a retry
/// once access is granted sends it (Docs/Auth.md, "Sharing and lost access").
@Suite("REST per-user authorization on Rails", .timeLimit(.minutes(5)))
struct RESTAuthorizationRailsTests {
    static func basic(_ user: String) -> String { "Basic " + Data("\(user):secret".utf8).base64EncodedString() }

    /// A request as `user` (HTTP Basic).
    @discardableResult
    static func request(_ user: String, _ method: String, _ path: String,
                        _ body: JSONValue? = nil) async throws -> (status: Int, json: JSONValue?) {
        try await RailsServer.request(method, path, body, headers: [("Authorization", basic(user))])
    }

    @Test(.liveServer) func aRefusedEditIsAForbiddenFailedEntryTheOthersGoAndARetryAfterAGrantSendsIt() async throws {
        // Users of their own, so that no other test's grant applies.
        let alice = RailsServer.uniqueName("alice"), bob = RailsServer.uniqueName("bob")
        let made = try await Self.request(alice, "POST", "/notes.json", ["note": ["text": "alice's"]])
        let hers = try #require(made.json?["id"]?.intValue.map(String.init), "note not created: \(made.status)")
        #expect(try await RailsServer.request("GET", "/notes.json").status == 401)   // the app requires a user

        let backend = RESTBackend(configuration: .init(baseURL: try RailsServer.url(),
                                                       resources: ["notes": RESTResource(path: "/notes", wrapKey: "note")],
                                                       headers: ["Authorization": Self.basic(bob)], timeout: .seconds(60)))
        try await withTemporaryStore(configuration: .deferred, backend: backend,
                                     collections: [CollectionDescriptor("notes")]) { store in
            let notes = store.collection("notes")
            try await store.refresh()
            #expect(try notes.find(hers)?["owner"] == .string(alice))
            try await notes.create(["text": .string("by \(bob)")])
            try await notes.patch(hers, ["text": "bob was here"])

            let report = try await store.flush()
            #expect(report.pushed == 1)        // his own note
            #expect(report.failed == 1)
            #expect(report.refused.isEmpty)    // one record refused, not the collection
            let failed = try store.failedEntries(collection: "notes")
            #expect(failed.map(\.objectID) == [hers])
            #expect(failed.first?.failure == .forbidden)
            #expect(failed.first?.status == 403)
            #expect(try notes.find(hers)?["text"] == "bob was here")     // what bob still sees
            // Re-keyed to the server's id by the push.
            let mineID = try #require(try notes.findAll().first { $0["text"] == .string("by \(bob)") }?["id"]?.stringValue)
            let serverMine = try await Self.request(alice, "GET", "/notes/\(mineID).json")
            #expect(serverMine.json?["owner"] == .string(bob))
            #expect(try await Self.request(alice, "GET", "/notes/\(hers).json").json?["text"] == "alice's")

            // A retry without access is refused again and kept.
            try store.retry("notes", id: hers)
            #expect(try await store.flush().failed == 1)
            #expect(try store.failedEntries().first?.failure == .forbidden)

            // alice grants bob; the retried edit goes.
            #expect(try await Self.request(alice, "POST", "/note_grants.json", ["grantee": .string(bob)]).status == 201)
            try store.retry("notes", id: hers)
            let granted = try await store.sync()
            #expect(granted.pushed == 1 && granted.failed == 0)
            #expect(try store.failedEntries().isEmpty && store.queueCount() == 0)
            #expect(try await Self.request(alice, "GET", "/notes/\(hers).json").json?["text"] == "bob was here")
        }
    }
}
