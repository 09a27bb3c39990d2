import Foundation
import Testing
@testable import OfflineStore

/// The paging kinds of a REST pull without a server (scripted answers): DRF-style envelopes,
/// next links in the body, limit/offset, the end of a pull, and the typed errors of a server
/// that does not page as the resource says.
@Suite("REST paging")
struct RESTPagingTests {
    static func backend(_ pull: RESTResource.PullFeed, _ answers: [HTTPResponse]) -> (RESTBackend, ScriptedTransport) {
        var tasks = RESTResource(path: "/tasks/")
        tasks.formatSuffix = nil
        tasks.versionField = nil
        tasks.concurrency = .none
        tasks.pull = pull
        let transport = ScriptedTransport(answers)
        return (RESTBackend(configuration: .init(baseURL: URL(string: "http://127.0.0.1:9")!, resources: ["tasks": tasks]),
                            transport: transport), transport)
    }

    static func task(_ id: Int) -> JSONValue {
        ["id": .int(Int64(id)), "title": .string("t\(id)"), "updated_at": .string("2026-01-01T00:00:00.\(String(format: "%06d", id))Z")]
    }

    static func envelope(_ ids: ClosedRange<Int>?, count: Int, next: String?) -> HTTPResponse {
        ScriptedTransport.json(200, ["count": .int(Int64(count)), "next": next.map(JSONValue.string) ?? .null,
                                     "previous": .null, "results": .array((ids.map(Array.init) ?? []).map(task))])
    }

    /// Every page of a pull since `cursor`, or the error that stopped it.
    static func pullAll(_ backend: RESTBackend, since cursor: String? = nil) async throws -> [PullPage] {
        var pages: [PullPage] = []
        var next: PullContinuation?
        repeat {
            let page = try await backend.pull(PullRequest(collection: "tasks", cursor: cursor, continuation: next))
            pages.append(page)
            next = page.next
        } while next != nil && pages.count < 20
        return pages
    }

    static var drfFeed: RESTResource.PullFeed {
        RESTResource.PullFeed(cursorParameter: nil, tombstoneField: nil, listKey: "results", countField: "count",
                              paging: .bodyLink(nextField: "next"))
    }

    @Test func bodyLinksAreFollowedAbsoluteOrRelativeAndTheCursorComesWithTheLastPage() async throws {
        let (backend, transport) = Self.backend(Self.drfFeed, [
            Self.envelope(1...2, count: 5, next: "http://127.0.0.1:9/tasks/?page=2"),
            Self.envelope(3...4, count: 5, next: "?page=3"),
            Self.envelope(5...5, count: 5, next: nil),
        ])
        let pages = try await Self.pullAll(backend)
        #expect(pages.flatMap(\.changes).map(\.id) == ["1", "2", "3", "4", "5"])
        #expect(pages.map(\.cursor) == [nil, nil, nil], "no cursor parameter: every pull starts from the beginning")
        #expect(pages.allSatisfy { $0.total == 5 })
        #expect(transport.sent.map(\.url.absoluteString) == ["http://127.0.0.1:9/tasks/", "http://127.0.0.1:9/tasks/?page=2",
                                                             "http://127.0.0.1:9/tasks/?page=3"])
    }

    @Test func limitOffsetAdvancesByTheRecordsReadAndStopsAtTheCount() async throws {
        var feed = Self.drfFeed
        feed.paging = .limitOffset(size: 2)
        let (backend, transport) = Self.backend(feed, [
            Self.envelope(1...2, count: 5, next: "ignored"), Self.envelope(3...4, count: 5, next: nil),
            Self.envelope(5...5, count: 5, next: nil),
        ])
        let pages = try await Self.pullAll(backend)
        #expect(pages.flatMap(\.changes).count == 5 && pages.count == 3)
        #expect(transport.sent.map { $0.url.query ?? "" } == ["limit=2&offset=0", "limit=2&offset=2", "limit=2&offset=4"])
    }

    @Test func aPagePastTheEndThatAnswers404EndsThePull() async throws {
        var feed = Self.drfFeed
        feed.paging = .pageNumber(size: 2)
        let (backend, _) = Self.backend(feed, [
            Self.envelope(1...2, count: 4, next: nil), Self.envelope(3...4, count: 4, next: nil),
            ScriptedTransport.json(404, ["detail": "Invalid page."]),
        ])
        let pages = try await Self.pullAll(backend)
        #expect(pages.flatMap(\.changes).count == 4)
        #expect(pages.last?.next == nil)
        // The first page's 404 is the route's: an error.
        let (first, _) = Self.backend(feed, [ScriptedTransport.json(404, ["detail": "Not found."])])
        await #expect { try await Self.pullAll(first) } throws: { ($0 as? OfflineStoreError)?.code == .server }
    }

    @Test(arguments: [
        (RESTResource.Paging.cursor(sizeParameter: "per_page", size: 2), "resources.tasks.pull.cursorParameter (\"updated_since\")"),
        (.limitOffset(size: 2), "resources.tasks.pull.paging.offsetParameter (\"offset\")"),
        (.pageNumber(size: 2), "resources.tasks.pull.paging.pageParameter (\"page\")"),
    ])
    func aServerThatIgnoresThePagingParameterStopsThePullNamingIt(_ paging: RESTResource.Paging, _ named: String) async throws {
        var feed = RESTResource.PullFeed(listKey: "results", paging: paging)
        feed.tombstoneField = nil
        let page = Self.envelope(1...2, count: 9, next: nil)
        let (backend, transport) = Self.backend(feed, Array(repeating: page, count: 5))
        await #expect { try await Self.pullAll(backend) } throws: { error in
            let error = error as? OfflineStoreError
            return error?.code == .configuration && error?.message.contains(named) == true
                && error?.message.contains("holds the same records as the page before") == true
        }
        #expect(transport.sent.count == 2, "the second, identical page stops the pull")
    }

    @Test func aNextLinkToThePageJustReadIsAnError() async throws {
        let (backend, transport) = Self.backend(Self.drfFeed, [Self.envelope(1...2, count: 9, next: "http://127.0.0.1:9/tasks/")])
        await #expect { try await Self.pullAll(backend) } throws: { error in
            (error as? OfflineStoreError)?.code == .configuration && "\(error)".contains("points at the page just read")
        }
        #expect(transport.sent.count == 1)
    }

    /// Every request carries the configuration's headers (credentials): a link to another
    /// scheme, host or port is refused, never asked (found by the `rest-pull` fuzz target).
    @Test(arguments: ["http://evil.example/tasks/?page=2", "http://127.0.0.1:10/tasks/?page=2",
                      "https://127.0.0.1:9/tasks/?page=2", "//evil.example/tasks/"])
    func aNextLinkToAnotherServerIsRefusedAndNotAsked(_ link: String) async throws {
        let (bodyBackend, bodyTransport) = Self.backend(Self.drfFeed, [Self.envelope(1...2, count: 9, next: link)])
        var headerFeed = Self.drfFeed
        headerFeed.paging = .linkHeader(size: 2)
        var answer = Self.envelope(1...2, count: 9, next: nil)
        answer.headers["link"] = "<\(link)>; rel=\"next\""
        let (headerBackend, headerTransport) = Self.backend(headerFeed, [answer])
        for (backend, transport) in [(bodyBackend, bodyTransport), (headerBackend, headerTransport)] {
            await #expect { try await Self.pullAll(backend) } throws: { error in
                (error as? OfflineStoreError)?.code == .badResponse && "\(error)".contains("points at another server")
            }
            #expect(transport.sent.count == 1, "only the first page was asked")
        }
    }

    /// A relative `Link` target means the page's server (RFC 8288): it is resolved against the
    /// page's URL, as a body link is (found by the `rest-pull` fuzz target: it was asked as a
    /// URL without a host).
    @Test func aRelativeLinkHeaderIsResolvedAgainstThePage() async throws {
        var feed = Self.drfFeed
        feed.paging = .linkHeader(size: 2)
        var first = Self.envelope(1...2, count: 3, next: nil)
        first.headers["link"] = "</tasks/?page=2&per_page=2>; rel=\"next\""
        let (backend, transport) = Self.backend(feed, [first, Self.envelope(3...3, count: 3, next: nil)])
        let pages = try await Self.pullAll(backend)
        #expect(pages.flatMap(\.changes).map(\.id) == ["1", "2", "3"])
        #expect(transport.sent.map(\.url.absoluteString) == ["http://127.0.0.1:9/tasks/?per_page=2",
                                                             "http://127.0.0.1:9/tasks/?page=2&per_page=2"])
    }

    @Test func keysetPagesThatCannotMovePastOneMarkAreAnErrorNamingTheSize() async throws {
        var feed = RESTResource.PullFeed(listKey: "results", paging: .cursor(size: 2))
        feed.tombstoneField = nil
        let row: JSONValue = ["id": 1, "updated_at": "m"], other: JSONValue = ["id": 2, "updated_at": "m"]
        let (backend, _) = Self.backend(feed, [ScriptedTransport.json(200, ["results": [row, other]])])
        await #expect { try await Self.pullAll(backend, since: "m") } throws: { error in
            (error as? OfflineStoreError)?.code == .configuration && "\(error)".contains("resources.tasks.pull.paging.size")
        }
    }

    @Test func aPullThatReadFewerRecordsThanAnnouncedFails() async throws {
        var feed = Self.drfFeed
        feed.paging = .linkHeader(size: 50)  // DRF sends no Link header: a silent partial pull without the count
        let (backend, _) = Self.backend(feed, [Self.envelope(1...50, count: 51, next: "http://127.0.0.1:9/tasks/?page=2")])
        await #expect { try await Self.pullAll(backend) } throws: { error in
            let error = error as? OfflineStoreError
            return error?.code == .badResponse && error?.message.contains("ended after 50 records but the server announced 51") == true
                && error?.message.contains("resources.tasks.pull.countField") == true
        }
    }

    @Test func anEnvelopeWithoutTheListKeyNamesTheSetting() async throws {
        var feed = Self.drfFeed
        feed.listKey = nil
        let (backend, _) = Self.backend(feed, [Self.envelope(1...2, count: 2, next: nil), Self.envelope(1...2, count: 2, next: nil)])
        await #expect { try await Self.pullAll(backend) } throws: { error in
            let message = (error as? OfflineStoreError)?.message ?? ""
            return (error as? OfflineStoreError)?.code == .configuration && message.contains("set resources.tasks.pull.listKey")
                && message.contains("\"results\" holds a list")
        }
        feed.listKey = "data.items"
        let (nested, _) = Self.backend(feed, [Self.envelope(1...2, count: 2, next: nil)])
        await #expect { try await Self.pullAll(nested) } throws: { error in
            "\(error)".contains("no list of records at resources.tasks.pull.listKey \"data.items\"")
        }
    }

    @Test func theResourcesFileReadsTheNewPagingKindsAndRefusesSilentLastWriteWins() throws {
        let file = try RESTResourceFile(contentsOf: DRFServer.fileURL(.plain))
        let tasks = try #require(file.resources["tasks"])
        #expect(tasks.pull.paging == .bodyLink(nextField: "next", sizeParameter: nil, size: 100))
        #expect(tasks.pull.cursorParameter == nil && tasks.pull.deletions == .sweep && tasks.pull.countField == "count")
        #expect(tasks.lostCreates == .refresh && tasks.memberPath == "/plain/demo/tasks/{id}/")
        let recipe = try #require(try RESTResourceFile(contentsOf: DRFServer.fileURL(.recipe)).resources["tasks"])
        #expect(RESTResourceFileTests.summary(recipe) == RESTResourceFileTests.summary(DRFServer.recipeResource(space: "demo")))
        for (text, expected) in [
            (#"{"resources":{"t":{"path":"/t","versionField":null}}}"#, "resources.t.versionField is null"),
            (#"{"resources":{"t":{"path":"/t","pull":{"cursorParameter":null}}}}"#, "resources.t.pull.paging.kind is cursor"),
            (#"{"resources":{"t":{"path":"/t","pull":{"deletions":"purge"}}}}"#, "resources.t.pull.deletions must be one of"),
            (#"{"resources":{"t":{"path":"/t","lostCreates":"retry"}}}"#, "resources.t.lostCreates must be one of"),
            (#"{"resources":{"t":{"path":"/t","pull":{"paging":{"kind":"bodyLink","pageParameter":"p"}}}}}"#, "pageParameter is not a setting"),
        ] {
            let error = #expect(throws: OfflineStoreError.self) { try RESTResourceFile(json: try JSONValue(parsing: text)) }
            #expect(error?.code == .configuration && error?.message.contains(expected) == true, "\(String(describing: error))")
        }
    }
}
