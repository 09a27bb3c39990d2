@testable import OfflineStore
import Testing

/// `ODataETag`: ETags read whole and sent back verbatim, compared weakly.
@Suite("OData ETags")
struct ODataETagTests {
    @Test(arguments: [
        ("W/\"3\"", true, "3"), ("W/\"1795834619879\"", true, "1795834619879"), ("\"a1\"", false, "a1"), ("W/\"\"", true, ""),
    ])
    func etagsAreReadWhole(text: String, weak: Bool, opaque: String) throws {
        let etag = try ODataETag(parsing: text)
        #expect(etag.isWeak == weak)
        #expect(etag.opaque == opaque)
        #expect(etag.ifMatch == text)
    }

    @Test(arguments: ["3", "W/3", "\"a b\"", "W/\"a\"b\"", "\"", "*"])
    func malformedETagsAreBadResponses(text: String) {
        let error = #expect(throws: OfflineStoreError.self) { try ODataETag(parsing: text) }
        #expect(error?.code == .badResponse)
        #expect(error?.message.contains(text) == true)
    }

    @Test func headerAndAnnotationMustNameOneVersion() throws {
        #expect(try ODataETag.of(header: "W/\"2\"", annotation: "\"2\"")?.text == "W/\"2\"")
        #expect(try ODataETag.of(header: nil, annotation: "W/\"2\"")?.text == "W/\"2\"")
        #expect(try ODataETag.of(header: nil, annotation: nil) == nil)
        let error = #expect(throws: OfflineStoreError.self) { try ODataETag.of(header: "W/\"2\"", annotation: "W/\"3\"") }
        #expect(error?.code == .badResponse)
        #expect(error?.message.contains("name different versions") == true)
        #expect(try ODataETag(parsing: "W/\"5\"").sameVersion(as: ODataETag(parsing: "\"5\"")))
    }
}
