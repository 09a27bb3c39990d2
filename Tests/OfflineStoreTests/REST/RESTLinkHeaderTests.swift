import Foundation
import Testing
@testable import OfflineStore

/// `Link` headers as RFC 8288 writes them, and next links that are not URLs, through a REST
/// pull with scripted answers (found by the `rest-headers` fuzz target: a header was split at
/// every comma, and a link Foundation had to percent-encode was asked re-encoded).
@Suite("REST Link headers")
struct RESTLinkHeaderTests {
    /// The URLs a `linkHeader` pull asks when its first page carries `link`.
    static func pulled(link: String) async throws -> [String] {
        var feed = RESTPagingTests.drfFeed
        feed.paging = .linkHeader(size: 2)
        var first = RESTPagingTests.envelope(1...2, count: 3, next: nil)
        first.headers["link"] = link
        let (backend, transport) = RESTPagingTests.backend(feed, [first, RESTPagingTests.envelope(3...3, count: 3, next: nil)])
        let pages = try await RESTPagingTests.pullAll(backend)
        #expect(pages.flatMap(\.changes).map(\.id) == ["1", "2", "3"])
        return transport.sent.map(\.url.absoluteString)
    }

    @Test(arguments: [
        ("<http://127.0.0.1:9/tasks/?ids=1,2&page=2>; rel=\"next\"", "http://127.0.0.1:9/tasks/?ids=1,2&page=2"),
        ("<http://127.0.0.1:9/tasks/?page=1>; rel=\"prev\", <http://127.0.0.1:9/tasks/?page=2>; rel=\"next\"",
         "http://127.0.0.1:9/tasks/?page=2"),
        ("<http://127.0.0.1:9/tasks/?page=2>; title=\"a, b; c\"; rel=\"next last\"", "http://127.0.0.1:9/tasks/?page=2"),
        ("<http://127.0.0.1:9/tasks/?page=2>;REL=Next", "http://127.0.0.1:9/tasks/?page=2"),
    ])
    func theNextLinkIsFoundAsRFC8288WritesIt(_ link: String, _ expected: String) async throws {
        #expect(try await Self.pulled(link: link) == ["http://127.0.0.1:9/tasks/?per_page=2", expected])
    }

    @Test func noNextLinkEndsThePullAfterOnePage() async throws {
        var feed = RESTPagingTests.drfFeed
        feed.paging = .linkHeader(size: 2)
        var first = RESTPagingTests.envelope(1...2, count: 2, next: nil)
        first.headers["link"] = "<http://127.0.0.1:9/tasks/?page=1>; rel=\"prev\", <http://127.0.0.1:9/tasks/?page=9>; rel=last"
        let (backend, transport) = RESTPagingTests.backend(feed, [first])
        _ = try await RESTPagingTests.pullAll(backend)
        #expect(transport.sent.count == 1)
    }

    /// Foundation percent-encodes such a link whole, its `%3A` included (`%253A`): the pull
    /// would ask a URL the server never wrote.
    @Test(arguments: ["http://127.0.0.1:9/tasks/?since=2026-01-01T00%3A00 x", "http://127.0.0.1:9/tasks/?q=\u{e9}%3A",
                      "http://127.0.0.1:9/tasks/?q=%zz"])
    func aNextLinkThatIsNoURLIsABadResponseNotAnotherRequest(_ link: String) async throws {
        let (backend, transport) = RESTPagingTests.backend(RESTPagingTests.drfFeed, [RESTPagingTests.envelope(1...2, count: 9, next: link)])
        await #expect { try await RESTPagingTests.pullAll(backend) } throws: { error in
            (error as? OfflineStoreError)?.code == .badResponse && "\(error)".contains("is not a URL")
        }
        #expect(transport.sent.count == 1)
    }
}
