import Foundation
@testable import OfflineStore
import Testing

/// `ODataBackend` pulling by a changed-since property against scripted answers of a service
/// without change tracking: the requests it sends, the cursor it hands back, and when its
/// pages say they started from the beginning.
@Suite("OData changed-since pulls, scripted answers")
struct ODataChangedSinceScriptedTests {
    /// Answers `$metadata` with plain mode's document and every other request with `answer`;
    /// keeps each request's decoded query.
    final class Script: HTTPTransport {
        let answer: @Sendable (String) -> HTTPResponse
        let queries = Locked<[String]>([])
        init(_ answer: @escaping @Sendable (String) -> HTTPResponse) { self.answer = answer }

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            if request.url.path.hasSuffix("/$metadata") { return HTTPResponse(status: 200, body: Data(ODataSamples.plainMetadata.utf8)) }
            let query = request.url.query?.removingPercentEncoding ?? ""
            queries.withLock { $0.append(query) }
            return answer(query)
        }

        var asked: [String] { queries.withLock { $0 } }
    }

    static let root = URL(string: "http://127.0.0.1:9/odata")!
    static let ids = (1...3).map { String(format: "00000000-0000-4000-8000-%012d", $0) }
    static let times = ["2026-11-28T02:56:59.99Z", "2026-11-28T02:57:00.5Z", "2026-11-28T02:57:01Z"]

    /// A page of Tasks (`index` into ``ids`` and ``times``), with a next link when `more`.
    static func page(_ indices: [Int], more: Bool = false, deltaLink: Bool = false) -> HTTPResponse {
        let entities = indices.map {
            #"{"@odata.etag":"W/\"1\"","ID":"\#(ids[$0])","Title":"t","ModifiedAt":"\#(times[$0])"}"#
        }
        var body = #"{"value":[\#(entities.joined(separator: ","))]"#
        if more { body += #","@odata.nextLink":"\#(root.absoluteString)/Tasks?$skiptoken=\#(indices.count)""# }
        if deltaLink { body += #","@odata.deltaLink":"\#(root.absoluteString)/Tasks?$deltatoken=9""# }
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data((body + "}").utf8))
    }

    static func backend(_ script: Script, sweepEvery: Int = 3) -> ODataBackend {
        ODataBackend(configuration: .init(serviceRoot: root, entitySets: [
            "Tasks": ODataEntitySetSettings(changedSince: "ModifiedAt", sweepEvery: sweepEvery)]), transport: script)
    }

    static func cursor(_ value: JSONValue?, refreshes: Int, property: String = "ModifiedAt") -> String {
        ODataChangedSinceCursor(property: property, value: value, refreshes: refreshes).text
    }

    @Test func anIncrementalPullAsksWhatChangedSinceTheCursorLessTheMarginAndPagesByPropertyAndKey() async throws {
        let script = Script { query in
            query.contains(" or ") ? Self.page([2]) : Self.page([0, 1], more: true)
        }
        let backend = Self.backend(script)
        let scope = ServerQuery([.equal("Title", "t")])
        let request = PullRequest(collection: "Tasks", cursor: Self.cursor("2026-11-28T02:57:01.5Z", refreshes: 1), scope: scope)
        let first = try await backend.pull(request)
        #expect(script.asked.first == "$filter=(Title eq 't') and (ModifiedAt ge 2026-11-28T02:56:59.5Z)&$orderby=ModifiedAt,ID")
        #expect(!first.restartedFromTheBeginning)
        #expect(first.cursor == nil, "the cursor goes with the last page")
        let next = try #require(first.next)

        let last = try await backend.pull(request.continuing(next))
        #expect(script.asked.last == "$filter=(Title eq 't') and ((ModifiedAt gt 2026-11-28T02:57:00.5Z) or "
            + "(ModifiedAt eq 2026-11-28T02:57:00.5Z and ID gt \(Self.ids[1])))&$orderby=ModifiedAt,ID",
                "the next page by (P, Key), not by the service's row-offset skiptoken")
        #expect(last.next == nil)
        #expect(!last.restartedFromTheBeginning)
        #expect(last.cursor == Self.cursor("2026-11-28T02:57:01.5Z", refreshes: 2),
                "the latest value read; entities read again within the margin do not move it back")
    }

    @Test func theCursorIsTheLatestValueAsTheServiceWroteIt() async throws {
        let script = Script { _ in Self.page([2, 0, 1]) }
        let page = try await Self.backend(script).pull(PullRequest(collection: "Tasks", cursor: Self.cursor("2026-11-28T02:56:00Z", refreshes: 2)))
        #expect(page.cursor == Self.cursor(.string(Self.times[2]), refreshes: 3))
        #expect(page.changes.map(\.id) == [Self.ids[2], Self.ids[0], Self.ids[1]])
    }

    @Test func aFullPullFromNoCursorStoresTheLatestValue() async throws {
        let script = Script { query in query.contains(" gt ") ? Self.page([2]) : Self.page([1, 0], more: true) }
        let backend = Self.backend(script)
        let first = try await backend.pull(PullRequest(collection: "Tasks"))
        #expect(Array(script.asked.prefix(2)) == ["", "$orderby=ID"],
                "a page in the service's own order shows no delta link, then the whole set by key")
        let next = try #require(first.next)
        let last = try await backend.pull(PullRequest(collection: "Tasks").continuing(next))
        #expect(script.asked.last == "$filter=ID gt \(Self.ids[0])&$orderby=ID")
        #expect(last.cursor == Self.cursor(.string(Self.times[2]), refreshes: 1))
        #expect(!last.restartedFromTheBeginning, "a pull from no cursor is swept by the engine anyway")
    }

    @Test func anEmptySetGivesNoCursor() async throws {
        let script = Script { _ in Self.page([]) }
        let page = try await Self.backend(script).pull(PullRequest(collection: "Tasks"))
        #expect(page.cursor == nil, "the next refresh is a full pull again")
    }

    @Test func anIncrementalPullThatFindsNothingKeepsTheValueAndCounts() async throws {
        let script = Script { _ in Self.page([]) }
        let page = try await Self.backend(script).pull(PullRequest(collection: "Tasks", cursor: Self.cursor("2026-11-28T02:56:00Z", refreshes: 1)))
        #expect(page.cursor == Self.cursor("2026-11-28T02:56:00Z", refreshes: 2))
        #expect(!page.restartedFromTheBeginning)
    }

    @Test func anIncrementalPageThatListsNothingButHasANextLinkFailsThePull() async throws {
        // The pull asks for what follows the last entity read: after a page without one it
        // could only ask the same again, and ending there would never move the cursor past it.
        let script = Script { _ in
            HTTPResponse(status: 200, headers: ["Content-Type": "application/json"],
                         body: Data(#"{"value":[],"@odata.nextLink":"http://127.0.0.1:9/odata/Tasks?$skiptoken=5"}"#.utf8))
        }
        let request = PullRequest(collection: "Tasks", cursor: Self.cursor("2026-11-28T02:57:01.5Z", refreshes: 1))
        let error = await #expect(throws: OfflineStoreError.self) { try await Self.backend(script).pull(request) }
        #expect(error?.code == .badResponse && error?.message.contains("lists no entity with a next link") == true,
                "\(String(describing: error))")
    }

    @Test func theScheduledRefreshIsAFullPullFlaggedSoThatTheEngineSweeps() async throws {
        let script = Script { _ in Self.page([0, 1]) }
        let page = try await Self.backend(script, sweepEvery: 3).pull(PullRequest(collection: "Tasks", cursor: Self.cursor("2026-11-28T02:56:00Z", refreshes: 3)))
        #expect(script.asked == ["$orderby=ID"])
        #expect(page.restartedFromTheBeginning)
        #expect(page.cursor == Self.cursor(.string(Self.times[1]), refreshes: 1), "the count starts again")
    }

    @Test(arguments: ["{damaged", #"{"property":"UpdatedOn","value":"2026-11-28T02:56:00Z","refreshes":1}"#,
                      #"{"property":"ModifiedAt","value":"last tuesday","refreshes":1}"#,
                      #"{"property":"ModifiedAt","refreshes":1}"#])
    func aCursorThatNoLongerParsesStartsAFlaggedFullPull(cursor: String) async throws {
        let script = Script { _ in Self.page([0]) }
        let page = try await Self.backend(script).pull(PullRequest(collection: "Tasks", cursor: cursor))
        #expect(script.asked == ["$orderby=ID"])
        #expect(page.restartedFromTheBeginning)
        #expect(page.cursor == Self.cursor(.string(Self.times[0]), refreshes: 1))
    }

    @Test func aChangedSinceCursorOfASetWithoutTheSettingStartsAFlaggedFullPullWithoutACursor() async throws {
        let script = Script { _ in Self.page([0]) }
        let backend = ODataBackend(configuration: .init(serviceRoot: Self.root), transport: script)
        let page = try await backend.pull(PullRequest(collection: "Tasks", cursor: Self.cursor("2026-11-28T02:56:00Z", refreshes: 1)))
        #expect(page.restartedFromTheBeginning)
        #expect(page.cursor == nil, "the engine forgets the cursor: every refresh is a full pull")
    }

    @Test func aRefusedFilterStartsAFlaggedFullPullAndIsNotAskedAgain() async throws {
        let script = Script { query in
            guard query.contains("ModifiedAt ge") else { return Self.page([0]) }
            return HTTPResponse(status: 400, headers: ["Content-Type": "application/json"],
                                body: Data(#"{"error":{"code":"BadRequest","message":"ModifiedAt is not filterable."}}"#.utf8))
        }
        let backend = Self.backend(script)
        let request = PullRequest(collection: "Tasks", cursor: Self.cursor("2026-11-28T02:56:00Z", refreshes: 1))
        let page = try await backend.pull(request)
        #expect(page.restartedFromTheBeginning)
        #expect(page.changes.map(\.id) == [Self.ids[0]])
        #expect(page.cursor == nil, "pulled in full from then on, as without the setting")
        _ = try await backend.pull(request)
        #expect(script.asked.filter { $0.contains("ModifiedAt ge") }.count == 1)
    }

    @Test func aServiceThatTracksChangesIgnoresTheSetting() async throws {
        let script = Script { _ in Self.page([0, 1], deltaLink: true) }
        let page = try await Self.backend(script).pull(PullRequest(collection: "Tasks"))
        #expect(page.cursor == Self.root.absoluteString + "/Tasks?$deltatoken=9")
    }

    @Test func thePropertyIsSelectedWithTheKeyInALightPull() async throws {
        let script = Script { _ in Self.page([]) }
        _ = try await Self.backend(script).pull(PullRequest(collection: "Tasks", hints: .init(fields: ["Done"])))
        #expect(script.asked == ["$select=ID,ModifiedAt,Done", "$orderby=ID&$select=ID,ModifiedAt,Done"],
                "a page in the service's own order shows no delta link, then the set by key")
    }

    @Test func anUndeclaredPropertyIsAConfigurationErrorAtPrepareAndPull() async throws {
        let script = Script { _ in Self.page([]) }
        let backend = ODataBackend(configuration: .init(serviceRoot: Self.root, entitySets: [
            "Tasks": ODataEntitySetSettings(changedSince: "UpdatedOn")]), transport: script)
        let prepared = await #expect(throws: OfflineStoreError.self) { try await backend.prepare(collection: "Tasks") }
        #expect(prepared?.code == .configuration)
        #expect(prepared?.message.contains("UpdatedOn") == true && prepared?.message.contains("ModifiedAt") == true)
        let pulled = await #expect(throws: OfflineStoreError.self) { try await backend.pull(PullRequest(collection: "Tasks")) }
        #expect(pulled?.code == .configuration)
        #expect(script.asked.isEmpty, "nothing is asked of the set")
        try await backend.prepare(collection: "Customers")
    }
}
