import Foundation
import Testing
@testable import OfflineStore

/// Where a Kinto pull's next page starts (``KintoPageBoundary``): at the last timestamp listed,
/// read from Kinto's `_token`, so a change sharing it is not skipped.
@Suite struct KintoPageBoundaryTests {
    /// A `Next-Page` as Kinto 26.5 builds it: every original parameter, then `_limit` and a
    /// URL-encoded base64 `_token` naming the last record listed.
    static func nextPage(since: String? = "1795832984026", last: Int64 = 1795832989359, extra: String = "") -> URL {
        let token = Data("{\"last_object\": {\"last_modified\": \(last)}, \"offset\": 7, \"nonce\": \"pagination-token-x\"}".utf8)
            .base64EncodedString().addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let start = since.map { "_since=\($0)&" } ?? ""
        return URL(string: "http://127.0.0.1:8888/v1/buckets/b/collections/c/records?\(start)\(extra)_fields=id,last_modified,deleted,by"
                   + "&_sort=last_modified&_limit=7&_limit=7&_token=\(token)")!
    }

    @Test func theBoundaryIsTheTokensLastRecord() {
        #expect(KintoPageBoundary.boundary(of: Self.nextPage()) == 1795832989359)
        #expect(KintoPageBoundary.boundary(of: URL(string: "http://h/v1/r?_since=1&_token=not-base64")!) == nil)
        #expect(KintoPageBoundary.boundary(of: URL(string: "http://h/v1/r?_since=1")!) == nil)
    }

    @Test func theNextPageStartsAtTheBoundaryKeepingEveryOtherParameter() throws {
        let overlap = try #require(KintoPageBoundary.overlapping(Self.nextPage(extra: "in_by=single,batch&")))
        let items = try #require(URLComponents(url: overlap, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(items.map(\.name) == ["_since", "in_by", "_fields", "_sort", "_limit", "_limit"])
        #expect(items.first?.value == "1795832989358")
        #expect(items[1].value == "single,batch")
        #expect(overlap.path == "/v1/buckets/b/collections/c/records")
    }

    @Test func aPullWithoutSinceOrAPageOfOneTimestampFollowsKintosNextPage() {
        let fresh = Self.nextPage(since: nil)
        #expect(KintoPageBoundary.overlapping(fresh) == nil)
        #expect(KintoPageBoundary.next(after: fresh, lowest: 1) == fresh)
        let paged = Self.nextPage()
        // Every change of the page shares the boundary: asked again from it, the page would come back whole.
        #expect(KintoPageBoundary.next(after: paged, lowest: 1795832989359) == paged)
        #expect(KintoPageBoundary.next(after: paged, lowest: nil) == paged)
        #expect(KintoPageBoundary.next(after: paged, lowest: 1795832989001) == KintoPageBoundary.overlapping(paged))
    }
}
