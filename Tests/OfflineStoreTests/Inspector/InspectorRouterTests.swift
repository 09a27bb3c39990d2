import Foundation
import OfflineStore
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import OfflineStoreInspector

/// The inspector's router without a socket: routes, read-only mode, the write guards, bad
/// input (a clear message and nothing changed), and paths that try to leave the page.
@Suite("Inspector router")
struct InspectorRouterTests {
    /// A store (in-memory server) with `todos/k` conflicted: base {a:1,b:1,c:1},
    /// local {a:2,b:1,c:2}, server {a:3,b:1,c:1}; and `todos/r`, a create the server refused (422).
    struct Fixture {
        let harness: any SyncHarness
        let store: ObjectStore
        let directory: TemporaryStore

        static func make() async throws -> Fixture {
            let harness = try await Harness.make(.memory)
            let (store, directory) = try harness.makeStore()
            let todos = store.collection("todos")
            try await todos.create(["id": "k", "a": 1, "b": 1, "c": 1])
            try await store.flush()
            try await todos.replace("k", with: ["id": "k", "a": 2, "b": 1, "c": 2])
            try await harness.serverPut("todos", "k", ["id": "k", "a": 3, "b": 1, "c": 1])
            try await store.flush()
            try await todos.create(["id": "r", "v": 1])
            harness.failNextPush(status: 422)
            #expect(try await store.flush().failed == 1)
            return Fixture(harness: harness, store: store, directory: directory)
        }

        func inspector(allowWrites: Bool) throws -> Inspector {
            try Inspector(store: store, configuration: .init(port: 0, allowWrites: allowWrites))
        }

        /// Everything a write could change: both objects with all copies, and the queue.
        func snapshot() throws -> [String] {
            let objects = try ["k", "r"].map { try store.collection("todos").object($0).map { "\($0)" } ?? "nil" }
            return objects + (try store.queueEntries().map { "\($0.seq) \($0.kind) \($0.state) \($0.attempts)" })
        }
    }

    static func get(_ inspector: Inspector, _ path: String, query: [String: String] = [:],
                    host: String? = nil) -> InspectorResponse {
        inspector.router.handle(InspectorRequest(method: "GET", path: path, query: query,
                                            headers: ["Host": host ?? "127.0.0.1:\(inspector.url.port!)"]))
    }

    static func post(_ inspector: Inspector, _ path: String, _ body: String,
                     headers extra: [String: String] = [:]) -> InspectorResponse {
        var headers = ["Host": "127.0.0.1:\(inspector.url.port!)", "Content-Type": "application/json",
                       "X-Offline-Store-Inspector": "1"]
        headers.merge(extra) { _, new in new }
        return inspector.router.handle(InspectorRequest(method: "POST", path: path, headers: headers, body: Array(body.utf8)))
    }

    static func message(_ response: InspectorResponse) throws -> String {
        try JSONValue(parsing: response.text)["error"]?.stringValue ?? ""
    }

    @Test func readsDescribeTheStore() async throws {
        let fixture = try await Fixture.make()
        let inspector = try fixture.inspector(allowWrites: false)
        defer { inspector.stop() }
        let overview = try JSONValue(parsing: Self.get(inspector, "/api/overview").text)
        let todos = try #require(overview["collections"]?.arrayValue?.first)
        #expect(todos["conflicted"] == 1 && todos["failed"] == 1 && todos["total"] == 2)
        #expect(overview["conflicts"] == 1 && overview["failed"] == 1 && overview["allowWrites"] == false)

        let conflict = try JSONValue(parsing: Self.get(inspector, "/api/conflict", query: ["collection": "todos", "id": "k"]).text)
        let changes = conflict["fields"]?.arrayValue?.map { "\($0["name"]!.stringValue!)=\($0["change"]!.stringValue!)" }
        #expect(changes == ["a=both", "b=same", "c=local"])

        let failed = try JSONValue(parsing: Self.get(inspector, "/api/failed").text)["failed"]?.arrayValue?.first
        #expect(failed?["status"] == 422 && failed?["actions"] == ["discard", "retry"])

        let page = try JSONValue(parsing: Self.get(inspector, "/api/objects", query: ["collection": "todos", "q": "k"]).text)
        #expect(page["objects"]?.arrayValue?.map { $0["id"] } == ["k"])
        let first = try JSONValue(parsing: Self.get(inspector, "/api/objects", query: ["collection": "todos", "limit": "1"]).text)
        #expect(first["objects"]?.arrayValue?.map { $0["id"] } == ["k"] && first["more"] == true)
        let second = try JSONValue(parsing: Self.get(
            inspector, "/api/objects", query: ["collection": "todos", "limit": "1", "offset": "1"]).text)
        #expect(second["objects"]?.arrayValue?.map { $0["id"] } == ["r"] && second["more"] == false)
        let byField = try JSONValue(parsing: Self.get(
            inspector, "/api/objects", query: ["collection": "todos", "field": "v", "value": "1"]).text)
        #expect(byField["objects"]?.arrayValue?.map { $0["id"] } == ["r"])
        #expect(Self.get(inspector, "/").text.contains("OfflineStore inspector"))
        #expect(Self.get(inspector, "/").headers["Content-Security-Policy"]?.contains("default-src 'none'") == true)
    }

    @Test func readOnlyRefusesEveryWriteAndChangesNothing() async throws {
        let fixture = try await Fixture.make()
        let inspector = try fixture.inspector(allowWrites: false)
        defer { inspector.stop() }
        let before = try fixture.snapshot()
        for (path, body) in [("/api/resolve", #"{"collection":"todos","id":"k","keep":"local"}"#),
                             ("/api/failed-action", #"{"collection":"todos","id":"r","action":"discard"}"#),
                             ("/api/run", #"{"operation":"flush"}"#)] {
            let response = Self.post(inspector, path, body)
            #expect(response.status == 403, "\(path)")
            #expect(try Self.message(response).contains("read-only"))
        }
        #expect(try fixture.snapshot() == before)
    }

    @Test(arguments: [
        (#"{"collection":"todos","id":"k","fields":{"a":{"take":"edit","json":"oat"}}}"#, 400, "field 'a': the edited value is not valid JSON"),
        (#"{"collection":"todos","id":"k","fields":{"c":{"take":"local"}}}"#, 400, "field 'a' differs: choose local, server or an edited value"),
        (#"{"collection":"todos","id":"k","fields":{"zz":{"take":"local"}}}"#, 400, "field 'zz' is in none of the copies"),
        (#"{"collection":"todos","id":"k","fields":{"a":{"take":"mine"}}}"#, 400, "\"take\" must be"),
        (#"{"collection":"todos","id":"k","keep":"both"}"#, 400, "give either \"keep\""),
        (#"{"collection":"todos","id":"r","keep":"local"}"#, 409, "todos/r is not conflicted"),
        (#"{"collection":"todos","id":"nope","keep":"local"}"#, 404, "todos/nope does not exist"),
        (#"{"collection":"x' OR 1=1 --","id":"k","keep":"local"}"#, 404, "x' OR 1=1 --"),
        (#"{"collection":"todos"}"#, 400, "the request needs \"id\""),
        (#"{"collection":"todos","id":"k","keep":"local""#, 400, "the request body is not valid JSON"),
        (#"["todos"]"#, 400, "must be a JSON object"),
    ])
    func badResolveInputGetsAClearMessageAndChangesNothing(body: String, status: Int, message: String) async throws {
        let fixture = try await Fixture.make()
        let inspector = try fixture.inspector(allowWrites: true)
        defer { inspector.stop() }
        let before = try fixture.snapshot()
        let response = Self.post(inspector, "/api/resolve", body)
        #expect(response.status == status)
        #expect(try Self.message(response).contains(message), "\(response.text)")
        #expect(try fixture.snapshot() == before)
    }

    @Test func badQueriesAndActionsGetClearMessages() async throws {
        let fixture = try await Fixture.make()
        let inspector = try fixture.inspector(allowWrites: true)
        defer { inspector.stop() }
        let before = try fixture.snapshot()
        typealias Case = (response: InspectorResponse, status: Int, message: String)
        let cases: [Case] = [
            (Self.get(inspector, "/api/objects", query: ["collection": "todos", "limit": "0"]), 400, "'limit' must be"),
            (Self.get(inspector, "/api/objects", query: ["collection": "todos", "offset": "-1"]), 400, "'offset' must be"),
            (Self.get(inspector, "/api/objects", query: ["collection": "todos", "state": "gone"]), 400, "unknown state 'gone'"),
            (Self.get(inspector, "/api/objects", query: [:]), 400, "missing query parameter 'collection'"),
            (Self.get(inspector, "/api/object", query: ["collection": "todos", "id": "../../etc/passwd"]), 404, "does not exist"),
            (Self.post(inspector, "/api/failed-action", #"{"collection":"todos","id":"r","action":"drop"}"#), 400,
             "unknown action 'drop'"),
            (Self.post(inspector, "/api/failed-action", #"{"collection":"todos","id":"r","action":"rollback"}"#), 409,
             "rollback does not apply"),
            (Self.post(inspector, "/api/run", #"{"operation":"purge"}"#), 400, "unknown operation 'purge'"),
        ]
        for (response, status, message) in cases {
            #expect(response.status == status, "\(response.text)")
            #expect(try Self.message(response).contains(message), "\(response.text)")
        }
        // A field path is bound as a parameter by the library: text that looks like SQL matches nothing.
        let injected = Self.get(inspector, "/api/objects", query: ["collection": "todos", "field": "a') OR 1=1 --", "value": "1"])
        #expect(injected.status == 200)
        #expect(try JSONValue(parsing: injected.text)["objects"] == [])
        #expect(try fixture.snapshot() == before)
    }

    @Test func writesNeedThePagesHeaderJSONAndOrigin() async throws {
        let fixture = try await Fixture.make()
        let inspector = try fixture.inspector(allowWrites: true)
        defer { inspector.stop() }
        let before = try fixture.snapshot()
        let body = #"{"collection":"todos","id":"k","keep":"local"}"#
        let noHeader = Self.post(inspector, "/api/resolve", body, headers: ["X-Offline-Store-Inspector": "0"])
        #expect(noHeader.status == 403)
        let foreign = Self.post(inspector, "/api/resolve", body, headers: ["Origin": "http://evil.example"])
        #expect(foreign.status == 403)
        #expect(try Self.message(foreign).contains("http://evil.example"))
        let form = Self.post(inspector, "/api/resolve", body, headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(form.status == 415)
        let rebound = Self.get(inspector, "/api/overview", host: "attacker.example:\(inspector.url.port!)")
        #expect(rebound.status == 421)
        #expect(Self.get(inspector, "/api/resolve").status == 405)
        #expect(try fixture.snapshot() == before)
    }

    @Test(arguments: ["/../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/api/../../etc/passwd", "/etc/passwd",
                      "/app.js/../../Package.swift", "//etc/passwd", "/api/overview/..", "/store.sqlite", "/.build"])
    func pathsOutsideThePageAreRefused(_ path: String) async throws {
        let fixture = try await Fixture.make()
        let inspector = try fixture.inspector(allowWrites: true)
        defer { inspector.stop() }
        let response = Self.get(inspector, path)
        #expect(response.status == 404)
        #expect(try Self.message(response) == "no such page: \(path)")
    }

    @Test func resolvingFieldByFieldGoesThroughTheLibraryAndFailedActionsWork() async throws {
        let fixture = try await Fixture.make()
        let inspector = try fixture.inspector(allowWrites: true)
        defer { inspector.stop() }
        let resolved = Self.post(inspector, "/api/resolve", """
            {"collection":"todos","id":"k","fields":{"a":{"take":"edit","json":"23"},"c":{"take":"server"}}}
            """)
        #expect(resolved.status == 200, "\(resolved.text)")
        #expect(try fixture.store.conflicts().isEmpty)
        #expect(try fixture.store.collection("todos").find("k") == ["id": "k", "a": 23, "b": 1, "c": 1])
        let discarded = Self.post(inspector, "/api/failed-action", #"{"collection":"todos","id":"r","action":"discard"}"#)
        #expect(discarded.status == 200, "\(discarded.text)")
        #expect(try fixture.store.collection("todos").object("r") == nil)
        try await fixture.store.flush()
        #expect(try await fixture.harness.serverGet("todos", "k") == ["id": "k", "a": 23, "b": 1, "c": 1])
    }

    @Test func theServerAnswersOnLoopbackAndRefusesMalformedRequests() async throws {
        let fixture = try await Fixture.make()
        let inspector = try fixture.inspector(allowWrites: false)
        inspector.start()
        defer { inspector.stop() }
        #expect(inspector.url.host == "127.0.0.1")
        let (data, response) = try await URLSession.shared.data(from: inspector.url.appendingPathComponent("api/overview"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(try JSONValue(parsing: data)["conflicts"] == 1)
        #expect(throws: HTTPParseError.self) { try InspectorRequest.parseHead(Array("GET http://x/ HTTP/1.1\r\nHost: a".utf8)) }
        let chunked = Array("POST /api/run HTTP/1.1\r\nTransfer-Encoding: chunked".utf8)
        #expect(throws: HTTPParseError(501, "chunked request bodies are not supported; send Content-Length")) {
            try InspectorRequest.parseHead(chunked)
        }
        let huge = Array("POST /api/run HTTP/1.1\r\nContent-Length: 99999999".utf8)
        #expect(throws: HTTPParseError(413, "the request body is larger than 1048576 bytes")) { try InspectorRequest.parseHead(huge) }
        let (request, _) = try InspectorRequest.parseHead(Array("GET /api/objects?collection=to%20do&q=a+b HTTP/1.1".utf8))
        #expect(request.query == ["collection": "to do", "q": "a b"])
    }
}
