import Foundation
@testable import OfflineStore
import Testing

/// A full pull paged by key reads two key ranges at once (``ODataPullState``), against a
/// scripted service without change tracking that pages by key as plain-mode services do. The
/// OData suites run the same pulls against the fixture's plain mode.
@Suite("OData full pull in two key ranges, scripted service")
struct ODataSplitPullTests {
    /// A service without change tracking, pages of three: `$filter` of key bounds joined by
    /// `and`, `$orderby=ID [desc]`, `$top`. Guid keys compare as text, integer keys by value.
    final class KeyedService: HTTPTransport {
        let keys: Locked<[String]>
        let integer: Bool
        let refusesDescending: Bool
        /// Each GET's decoded query, in the order they arrived.
        let queries = Locked<[String]>([])

        init(keys: [String], integer: Bool = false, refusesDescending: Bool = false) {
            self.integer = integer
            self.refusesDescending = refusesDescending
            self.keys = Locked(keys)
        }

        func less(_ a: String, _ b: String) -> Bool {
            integer ? Int(a)! < Int(b)! : a < b
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
        #expect(queries.contains { $0.contains("ID le \(pivot)") } && queries.contains { $0.contains("$filter=ID gt \(pivot)&") })
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
        #expect(queries.contains { $0.hasPrefix("$filter=ID gt 21&") }, "\(queries)")
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
        let keys = (1...40).map(String.init)
        let service = KeyedService(keys: keys, integer: true)
        let backend = ODataBackend(configuration: .init(serviceRoot: Self.root), transport: service)
        var turn = 0
        let pages = try await Self.pages(backend, "Customers") {
            turn += 1
            // After the first page of each range: one key at the head of each range goes.
            if turn == 3 { service.keys.withLock { $0.removeAll { $0 == "7" || $0 == "25" } } }
        }
        let ids = pages.flatMap { $0.changes.map(\.id) }
        #expect(Set(ids).count == ids.count, "no key twice")
        #expect(Set(keys).subtracting(ids).isSubset(of: ["7", "25"]), "nothing else missed: \(Set(keys).subtracting(ids))")
    }

    @Test func aSetOfOnePageIsNotSplit() async throws {
        let keys = ["1", "2", "3"]
        let service = KeyedService(keys: keys, integer: true)
        let backend = ODataBackend(configuration: .init(serviceRoot: Self.root), transport: service)
        let pages = try await Self.pages(backend, "Customers")
        #expect(pages.count == 1 && pages[0].changes.map(\.id) == keys)
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
