import Foundation
@testable import OfflineStore
import Testing

/// `ODataBackend` against scripted answers: what the fixture cannot be made to answer
/// (a service without `$batch`, a batch answer that leaves a request out, a 428, HTML).
@Suite("OData backend, scripted answers")
struct ODataBackendScriptedTests {
    /// Answers `$metadata` with the fixture's document and everything else with `answer`.
    final class Script: HTTPTransport {
        let answer: @Sendable (HTTPRequest) -> HTTPResponse
        let lines = Locked<[String]>([])
        init(_ answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse) { self.answer = answer }

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let path = request.url.path
            lines.withLock { $0.append(request.method + " " + path) }
            if path.hasSuffix("/$metadata") { return HTTPResponse(status: 200, body: Data(ODataSamples.fixtureMetadata.utf8)) }
            return answer(request)
        }
    }

    static let root = URL(string: "http://127.0.0.1:9/odata")!
    static let ids = ["00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"]

    static func created(_ id: String) -> HTTPResponse {
        HTTPResponse(status: 201, headers: ["ETag": #"W/"1""#, "Content-Type": "application/json"],
                     body: Data(#"{"@odata.etag":"W/\"1\"","ID":"\#(id)","Title":"t"}"#.utf8))
    }

    static func creates() -> [PushOperation] {
        ids.map { PushOperation(id: $0, kind: .create, data: ["id": .string($0), "Title": "t"], baseVersion: nil, idempotencyKey: $0) }
    }

    @Test func aServiceWithoutBatchGetsOneRequestEachFromThenOn() async throws {
        let script = Script { request in
            if request.url.path.hasSuffix("/$batch") { return HTTPResponse(status: 404) }
            let body = try? JSONValue(parsing: request.body ?? Data())
            return Self.created(body?["ID"]?.stringValue ?? "")
        }
        let backend = ODataBackend(configuration: .init(serviceRoot: Self.root), transport: script)
        let outcomes = try await backend.push(Self.creates(), collection: "Tasks")
        #expect(outcomes == Self.ids.map { .applied(record: ["id": .string($0), "Title": "t"], version: #"W/"1""#) })
        _ = try await backend.push(Self.creates(), collection: "Tasks")
        #expect(script.lines.withLock { $0 }.filter { $0.hasSuffix("/$batch") }.count == 1, "asked once, remembered")
    }

    @Test func aBatchAnswerThatLeavesARequestOutRetriesIt() async throws {
        let script = Script { request in
            let answer = #"{"responses":[{"id":"1","status":201,"headers":{"etag":"W/\"1\""},"body":{"@odata.etag":"W/\"1\"","ID":"\#(Self.ids[0])","Title":"t"}}]}"#
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(answer.utf8))
        }
        let backend = ODataBackend(configuration: .init(serviceRoot: Self.root), transport: script)
        let outcomes = try await backend.push(Self.creates(), collection: "Tasks")
        #expect(outcomes.first == .applied(record: ["id": .string(Self.ids[0]), "Title": "t"], version: #"W/"1""#))
        guard case .retry? = outcomes.last else { Issue.record("expected a retry, got \(String(describing: outcomes.last))"); return }
    }

    @Test func a428IsAConfigurationErrorNamingIfMatch() async throws {
        let script = Script { _ in
            HTTPResponse(status: 428, headers: ["Content-Type": "application/json"],
                         body: Data(#"{"error":{"code":"428","message":"An If-Match header is required to modify this resource."}}"#.utf8))
        }
        let backend = ODataBackend(configuration: .init(serviceRoot: Self.root), transport: script)
        let update = PushOperation(id: Self.ids[0], kind: .update, data: ["Title": "u"], baseVersion: nil, idempotencyKey: "k")
        let error = await #expect(throws: OfflineStoreError.self) { try await backend.push([update], collection: "Tasks") }
        #expect(error?.code == .configuration && error?.message.contains("If-Match") == true)
    }

    @Test func anHTMLPageIsNamedAsSuch() async throws {
        let script = Script { _ in
            HTTPResponse(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html><title>Login</title></html>".utf8))
        }
        let backend = ODataBackend(configuration: .init(serviceRoot: Self.root), transport: script)
        let error = await #expect(throws: OfflineStoreError.self) { try await backend.pull(PullRequest(collection: "Tasks")) }
        #expect(error?.code == .badResponse && error?.message.contains("text/html") == true)
    }

    @Test func anUnknownSetNamesTheSetsThereAre() async throws {
        let backend = ODataBackend(configuration: .init(serviceRoot: Self.root), transport: Script { _ in HTTPResponse(status: 500) })
        let error = await #expect(throws: OfflineStoreError.self) { try await backend.prepare(collection: "Tickets") }
        #expect(error?.code == .configuration && error?.message.contains("Customers, Orders, Tasks") == true)
        #expect(backend.traits(of: "Orders").associations == ["CustomerID": "Customers"] && backend.traits(of: "Orders").assignsIDs)
        let invalid = #expect(throws: OfflineStoreError.self) { try backend.validate(id: "not-a-guid", in: "Tasks") }
        #expect(invalid?.code == .invalidID)
    }
}
