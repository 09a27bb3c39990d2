import Foundation
@testable import OfflineStore
import Testing

/// A full pull paged by key reads two key ranges at once (``ODataPullState``), against a
/// scripted service without change tracking that pages by key as plain-mode services do. The
/// OData suites run the same pulls against the fixture's plain mode.
@Suite("OData full pull in two key ranges, scripted service", .timeLimit(.minutes(2)))
struct ODataSplitPullTests {
    /// A service without change tracking, pages of three: `$filter` of key bounds joined by
    /// `and`, `$orderby=ID [desc]`, `$top`. Guid keys compare as text (or as SQL Server orders
    /// `uniqueidentifier`: by the last group first), integer keys by value.
    final class KeyedService: HTTPTransport {
        let keys: Locked<[String]>
        let integer: Bool
        let sqlServerOrder: Bool
        let refusesDescending: Bool
        /// A filter term whose answer is a page of no entities with a next link.
        let emptyPageFor: String?
        /// Each GET's decoded query, in the order they arrived.
        let queries = Locked<[String]>([])

        init(keys: [String], integer: Bool = false, sqlServerOrder: Bool = false, refusesDescending: Bool = false,
             emptyPageFor: String? = nil) {
            self.integer = integer
            self.sqlServerOrder = sqlServerOrder
            self.refusesDescending = refusesDescending
            self.emptyPageFor = emptyPageFor
            self.keys = Locked(keys)
        }

        func less(_ a: String, _ b: String) -> Bool {
            if integer { return Int(a)! < Int(b)! }
            if sqlServerOrder {
                let groups = { (key: String) in Array(key.split(separator: "-").reversed()) }
                return groups(a).lexicographicallyPrecedes(groups(b))
            }
            return a < b
        }

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            if request.url.path.hasSuffix("/$metadata") {
                return HTTPResponse(status: 200, body: Data(ODataSamples.fixtureMetadata.utf8))
            }
            let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            func item(_ name: String) -> String? { items.first { $0.name == name }?.value }
            queries.withLock { $0.append(items.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")) }
            let descending = item("$orderby") == "ID desc"
            if descending && refusesDescending { return HTTPResponse(status: 400) }
            if let emptyPageFor, item("$filter")?.contains(emptyPageFor) == true {
                return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"],
                                    body: Data(#"{"value":[],"@odata.nextLink":"http://127.0.0.1:9/odata/Set?$skiptoken=9"}"#.utf8))
            }
            var listed = keys.withLock { $0 }.sorted(by: less)
            for term in item("$filter")?.components(separatedBy: " and ") ?? [] {
                let words = term.split(separator: " ").map(String.init)
                guard words.count == 3, words[0] == "ID" else { return HTTPResponse(status: 501) }
                switch words[1] {
                case "gt": listed = listed.filter { less(words[2], $0) }
                case "le": listed = listed.filter { !less(words[2], $0) }
                default: return HTTPResponse(status: 501)
                }
            }
            if descending { listed.reverse() }
            let page = listed.prefix(Int(item("$top") ?? "") ?? 3)
            let values = page.map { key in
                #"{"@odata.etag":"W/\"1\"","ID":\#(integer ? key : "\"\(key)\""),"\#(integer ? "Name" : "Title")":"x"}"#
            }
            let next = page.count < listed.count ? #","@odata.nextLink":"http://127.0.0.1:9/odata/Set?$skiptoken=\#(page.count)""# : ""
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"],
                                body: Data(#"{"value":[\#(values.joined(separator: ","))]\#(next)}"#.utf8))
        }
    }

    static let root = URL(string: "http://127.0.0.1:9/odata")!

    /// Every page of a full pull from the beginning.
    static func pages(_ backend: ODataBackend, _ set: String, between: (() -> Void)? = nil) async throws -> [PullPage] {
        var page = try await backend.pull(PullRequest(collection: set))
        var pages = [page]
        while let next = page.next {
            between?()
            page = try await backend.pull(PullRequest(collection: set, continuation: next))
            pages.append(page)
        }
        return pages
    }

    static func guid(_ high: Int, _ n: Int) -> String {
        String(format: "%08x-0000-4000-8000-%012x", high, n)
    }

    @Test func guidKeysAreReadInTwoRangesInTurnEachKeyOnceEachRequestOnce() async throws {
        let keys = (0..<15).map { Self.guid(0x1000_0000, $0) } + (0..<15).map { Self.guid(0xe000_0000, $0) }
        let service = KeyedService(keys: keys.shuffled())
        let backend = ODataBackend(configuration: .init(serviceRoot: Self.root), transport: service)
        let pages = try await Self.pages(backend, "Tasks")

        let ids = pages.flatMap { $0.changes.map(\.id) }
        #expect(ids.sorted() == keys.sorted(), "each key once")
        #expect(pages.last?.cursor == nil, "a full pull without change tracking stores no cursor")
        let pivot = try #require(ODataKeyMidpoint.between(keys[2], keys[29], type: .guid))
        let queries = service.queries.withLock { $0 }
        #expect(Set(queries).count == queries.count, "no page asked twice: \(queries)")
        #expect(queries.filter { $0.contains("$orderby=ID desc&$top=1") }.count == 1, "the largest key asked once")
        #expect(queries.contains { $0.contains("ID gt \(keys[2]) and ID le \(pivot)") })
        #expect(queries.contains { $0.contains("$filter=ID gt \(keys[2]) and ID gt \(pivot)&") })
        // After the first page the ranges take turns while both have pages: 12 keys up to the
        // pivot (4 pages), 15 after it (5 pages).
        let sides = pages.dropFirst().map { page in page.changes.allSatisfy { $0.id <= pivot } ? "low" : "high" }
        #expect(sides == ["low", "high", "low", "high", "low", "high", "low", "high", "high"])
        // The unordered probe for change tracking, the first page by key, the largest key, 9 pages.
        #expect(queries.count == 12)
    }

    @Test func integerKeysSplitByValue() async throws {
        let keys = (1...40).map(String.init)
        let service = KeyedService(keys: keys, integer: true)
        let backend = ODataBackend(configuration: .init(serviceRoot: Self.root), transport: service)
        let pages = try await Self.pages(backend, "Customers")
        #expect(pages.flatMap { $0.changes.map(\.id) }.sorted { Int($0)! < Int($1)! } == keys)
        let queries = service.queries.withLock { $0 }
        #expect(queries.contains { $0.hasPrefix("$filter=ID gt 3 and ID le 21&") }, "\(queries)")
        #expect(queries.contains { $0.hasPrefix("$filter=ID gt 3 and ID gt 21&") }, "\(queries)")
        #expect(Set(queries).count == queries.count)
    }

    @Test func aServiceThatRefusesTheLargestKeyIsReadInOneRange() async throws {
        let keys = (1...20).map(String.init)
        let service = KeyedService(keys: keys, integer: true, refusesDescending: true)
        let backend = ODataBackend(configuration: .init(serviceRoot: Self.root), transport: service)
        let pages = try await Self.pages(backend, "Customers")
        #expect(pages.flatMap { $0.changes.map(\.id) } == keys, "in key order: one range")
        #expect(!service.queries.withLock { $0 }.contains { $0.contains(" le ") })
    }

    @Test func aKeyDeletedBetweenPagesSkipsNoOtherKey() async throws {
        // Pages: 1-3, then 4-6 and 22-24 asked at once, 7-9 asked when 4-6 is taken, 25-27 when
        // 22-24 is. Before the fourth page is taken (7-9), 10 and 28 go: they head the third
        // page of each range, which is asked only after that. A row offset would skip 11 and 29.
        let keys = (1...40).map(String.init)
        let service = KeyedService(keys: keys, integer: true)
        let backend = ODataBackend(configuration: .init(serviceRoot: Self.root), transport: service)
        var turn = 0
        let pages = try await Self.pages(backend, "Customers") {
            turn += 1
            if turn == 3 { service.keys.withLock { $0.removeAll { $0 == "10" || $0 == "28" } } }
        }
        let ids = pages.flatMap { $0.changes.map(\.id) }
        #expect(ids.sorted { Int($0)! < Int($1)! } == keys.filter { $0 != "10" && $0 != "28" })
    }

    @Test func aServiceThatOrdersGuidsOtherwiseReadsNoKeyOfTheFirstPageAgain() async throws {
        // SQL Server orders a Guid by its last group first. The first page ends at k3; the
        // midpoint of k3 and the largest key (l10), by the digits, is …-0001-000000000089, which
        // that order puts before every key: the lower range is empty, and the upper one, the
        // keys after both k3 and the midpoint, starts after k3 rather than at the set's start.
        let low = (1...10).map { String(format: "00000000-0000-0000-0000-8000000000%02d", $0) }
        let high = (1...10).map { String(format: "00000000-0000-0000-0001-8000000001%02d", $0) }
        let service = KeyedService(keys: (low + high).shuffled(), sqlServerOrder: true)
        let backend = ODataBackend(configuration: .init(serviceRoot: Self.root), transport: service)
        let pages = try await Self.pages(backend, "Tasks")
        let ids = pages.flatMap { $0.changes.map(\.id) }
        #expect(ids.sorted() == (low + high).sorted(), "each key once: \(ids)")
        #expect(service.queries.withLock { $0 }.contains { $0.contains("ID le 00000000-0000-0000-0001-000000000089") },
                "the pull split: \(service.queries.withLock { $0 })")
    }

    @Test func aPageOfNoEntitiesWithANextLinkFailsThePullByKey() async throws {
        // Keys 1-10: the first page 1-3, the midpoint 6; the upper range's first page is empty
        // yet has a next link. Ending the pull there would have the engine sweep 7-10.
        let service = KeyedService(keys: (1...10).map(String.init), integer: true, emptyPageFor: "ID gt 6")
        let backend = ODataBackend(configuration: .init(serviceRoot: Self.root), transport: service)
        let error = await #expect(throws: OfflineStoreError.self) { _ = try await Self.pages(backend, "Customers") }
        #expect(error?.code == .badResponse && error?.message.contains("lists no entity with a next link") == true,
                "\(String(describing: error))")
    }

    @Test func aSetOfOnePageIsNotSplit() async throws {
        let keys = ["1", "2", "3"]
        let service = KeyedService(keys: keys, integer: true)
        let backend = ODataBackend(configuration: .init(serviceRoot: Self.root), transport: service)
        let pages = try await Self.pages(backend, "Customers")
        #expect(pages.count == 1 && pages[0].changes.map(\.id) == keys)
        #expect(!service.queries.withLock { $0 }.contains { $0.contains("desc") }, "no largest key asked for one page")
    }

    /// Answers the first page and the lower range's first page, whose last entity has no ETag;
    /// holds every other request until it is cancelled, and reports each cancellation.
    final class HoldingService: HTTPTransport {
        let cancelled: AsyncStream<String>
        private let report: AsyncStream<String>.Continuation

        init() { (cancelled, report) = AsyncStream.makeStream(of: String.self) }

        static func page(_ entities: [String], more: Bool) -> HTTPResponse {
            let next = more ? #","@odata.nextLink":"http://127.0.0.1:9/odata/Customers?$skiptoken=3""# : ""
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"],
                                body: Data(#"{"value":[\#(entities.joined(separator: ","))]\#(next)}"#.utf8))
        }

        static func entity(_ id: Int, etag: Bool = true) -> String {
            #"{\#(etag ? #""@odata.etag":"W/\"1\"","# : "")"ID":\#(id),"Name":"x"}"#
        }

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            if request.url.path.hasSuffix("/$metadata") {
                return HTTPResponse(status: 200, body: Data(ODataSamples.fixtureMetadata.utf8))
            }
            let query = request.url.query?.removingPercentEncoding ?? ""
            if !query.contains("$filter") && !query.contains("desc") { return Self.page((1...3).map { Self.entity($0) }, more: true) }
            if query.contains("desc") { return Self.page([Self.entity(10)], more: false) }
            if query.hasPrefix("$filter=ID gt 3 and ID le 6&") {
                return Self.page([Self.entity(4), Self.entity(5, etag: false)], more: true)
            }
            do {
                try await Task.sleep(for: .seconds(60))
                report.yield("answered " + query)
            } catch {
                report.yield("cancelled " + query)
                throw error
            }
            return HTTPResponse(status: 500)
        }
    }

    @Test func aPageThatFailsToMapDropsTheRequestsAlreadyAskedForIt() async throws {
        // The lower range's next page and the upper range's first are asked before the lower
        // range's page is mapped; its entity without an ETag fails the pull, and both requests
        // are cancelled rather than left to run.
        let service = HoldingService()
        // The continuations live only inside: once the pull failed, the engine drops them too.
        func failingPull() async throws {
            let backend = ODataBackend(configuration: .init(serviceRoot: Self.root), transport: service)
            let first = try await backend.pull(PullRequest(collection: "Customers"))
            let next = try #require(first.next)
            let error = await #expect(throws: OfflineStoreError.self) {
                _ = try await backend.pull(PullRequest(collection: "Customers", continuation: next))
            }
            #expect(error?.code == .badResponse && error?.message.contains("@odata.etag") == true, "\(String(describing: error))")
        }
        try await failingPull()
        var ends: [String] = []
        for await end in service.cancelled {
            ends.append(end)
            if ends.count == 2 { break }
        }
        #expect(ends.sorted() == ["cancelled $filter=ID gt 3 and ID gt 6&$orderby=ID", "cancelled $filter=ID gt 5 and ID le 6&$orderby=ID"],
                "\(ends)")
    }

    @Test(.enabled(if: StartedHereTaskTests.startsOnCallersThread,
                   "Task.immediate: Linux, Apple systems from 26; before those, an ordinary Task"))
    func theRangesNextRequestsAreSentBeforeThePullReturns() async throws {
        let service = KeyedService(keys: (1...12).map(String.init), integer: true)
        let backend = ODataBackend(configuration: .init(serviceRoot: Self.root), transport: service)
        let first = try await backend.pull(PullRequest(collection: "Customers"))
        #expect(first.next != nil)
        // Read with no suspension after the pull returned: both ranges' first requests are
        // already on their way. The pull starts them on its own thread (`Task.startedHere`,
        // whose own tests pin that); here a request left to a task waiting for a free thread
        // could still happen to have gone out.
        let queries = service.queries.withLock { $0 }
        #expect(queries.contains { $0.contains("ID gt 3 and ID le ") } && queries.contains { $0.contains("ID gt 3 and ID gt ") },
                "\(queries)")
    }

    @Test func keysWithoutAMidpointAreReadInOneRange() async throws {
        // The first page ends at 3 and the largest key is 4: no key lies between.
        let keys = ["1", "2", "3", "4"]
        let service = KeyedService(keys: keys, integer: true)
        let backend = ODataBackend(configuration: .init(serviceRoot: Self.root), transport: service)
        let pages = try await Self.pages(backend, "Customers")
        #expect(pages.flatMap { $0.changes.map(\.id) } == keys)
        #expect(!service.queries.withLock { $0 }.contains { $0.contains(" le ") })
    }
}
