import Foundation
@testable import OfflineStore
import Testing

/// `ODataPage.read`: the test server's pages and deltas in both shapes, 4.01's short
/// control names, and typed errors for what is not a page.
@Suite("OData page reader")
struct ODataPageTests {
    static func read(_ text: String) throws -> ODataPage { try ODataPage.read(Data(text.utf8)) }
    static let tasks = ODataKey(entitySet: "Tasks", property: "ID", type: .guid)

    @Test func aDeltaModePageHasEntitiesEtagsANextLinkAndADeltaLink() throws {
        let page = try Self.read(ODataSamples.deltaModePage)
        #expect(page.entities.count == 3)
        #expect(page.removals.isEmpty)
        let first = try #require(page.entities.first)
        #expect(first.etag == "W/\"1\"")
        #expect(first.id == nil)
        #expect(first.properties.keys.sorted() == ["CreatedAt", "Done", "ID", "ModifiedAt", "Notes", "Priority", "Title"])
        #expect(first.properties["Priority"] == .null)
        #expect(try first.properties["ID"].map(Self.tasks.id(of:)) == "00000000-0000-4000-8000-000000000001")
        #expect(page.nextLink == "http://127.0.0.1:18761/odata/Tasks?$skiptoken=3%21UUID%28%2700000000-0000-4000-8000-000000000003%27%29")
        #expect(page.deltaLink == "http://127.0.0.1:18761/odata/Tasks?$deltatoken=4")
        #expect(page.count == nil)
    }

    /// A member is data unless its name holds "@" or starts with "#", whatever follows them
    /// (a combining mark too); other names, empty or not ASCII, are kept.
    @Test func membersAreDataUnlessTheirNameHoldsAnAtOrStartsWithAHash() throws {
        let page = try Self.read(#"""
            {"value":[{"@odata.etag":"W/\"1\"","ID":1,"Größe":2,"":3,"C#":4,"Title@odata.type":"#String",
                       "#Fixture.Close":{},"a@\u0301b":5,"#\u20e3x":6}]}
            """#)
        #expect(page.entities.first?.properties.keys.sorted() == ["", "C#", "Größe", "ID"])
    }

    @Test func aPlainModePageHasNoDeltaLink() throws {
        let page = try Self.read(ODataSamples.plainModePage)
        #expect(page.entities.map(\.etag) == ["W/\"1795834619879\"", "W/\"1795834619990\"", "W/\"1795834620066\""])
        #expect(page.nextLink == "http://127.0.0.1:18762/odata/Tasks?$skiptoken=3")
        #expect(page.deltaLink == nil)
    }

    @Test(arguments: [ODataSamples.deltaAnswer, ODataSamples.deltaAnswer40])
    func aDeltaListsChangesAndRemovalsInOrderInBothShapes(body: String) throws {
        let page = try Self.read(body)
        #expect(page.entries.count == 2)
        guard case .entity(let changed) = page.entries[0], case .removed(let removal) = page.entries[1] else {
            Issue.record("expected an entity then a removal: \(page.entries)")
            return
        }
        #expect(changed.id == "http://127.0.0.1:18761/odata/Tasks(00000000-0000-4000-8000-000000000001)")
        #expect(changed.etag == "W/\"2\"")
        #expect(changed.properties["Title"] == "t1b")
        #expect(removal.reason == "deleted")
        #expect(removal.keyProperties.isEmpty)
        #expect(try removal.id.map(Self.tasks.id(ofEntityID:)) == "00000000-0000-4000-8000-000000000002")
        #expect(page.deltaLink == "http://127.0.0.1:18761/odata/Tasks?$deltatoken=6")
        #expect(page.nextLink == nil)
    }

    @Test func shortControlNamesKeyedRemovalsAnnotationsAndLinksAreRead() throws {
        let page = try Self.read("""
            {"@context":"$metadata#Tasks/$delta","@count":2,"@nextLink":"Tasks?$skiptoken=2",
             "value":[
               {"@etag":"W/\\"4\\"","@id":"Tasks(1)","ID":1,"Title@odata.type":"#String","Title":"x","#Fixture.Close":{}},
               {"@removed":{"reason":"changed"},"ID":2},
               {"@odata.context":"$metadata#Tasks/$link","source":"Tasks(1)","relationship":"Owner","target":"People(3)"},
               {"@odata.context":"$metadata#Tasks/$deletedLink","source":"Tasks(1)","relationship":"Owner","target":"People(4)"}
             ]}
            """)
        #expect(page.count == 2)
        #expect(page.nextLink == "Tasks?$skiptoken=2")
        #expect(page.skippedLinks == 2)
        #expect(page.entries == [
            .entity(.init(properties: ["ID": 1, "Title": "x"], etag: "W/\"4\"", id: "Tasks(1)")),
            .removed(.init(id: nil, keyProperties: ["ID": 2], reason: "changed")),
        ])
    }

    @Test func anEmptyPageAndANullNextLinkAreFine() throws {
        let page = try Self.read(#"{"value":[],"@odata.nextLink":null}"#)
        #expect(page.entries.isEmpty)
        #expect(page.nextLink == nil)
    }

    /// Each body that is not a page, and the words that say why.
    @Test(arguments: [
        ("", "the page is not JSON"),
        ("<html>502</html>", "the page is not JSON"),
        ("[1,2]", "the page is array, not an object"),
        (#"{"d":{"results":[]}}"#, #"the page has no "value" array (its members: d)"#),
        (#"{"value":{}}"#, #"no "value" array"#),
        (#"{"value":[1]}"#, #"entry 0 of "value" is integer, not an object"#),
        (#"{"value":[{"ID":1},{"@odata.etag":3}]}"#, "entry 1's @odata.etag is integer, not a string"),
        (#"{"value":[{"@removed":true,"@id":"Tasks(1)"}]}"#, "entry 0's @removed is boolean, not an object"),
        (#"{"value":[{"@removed":{}}]}"#, "entry 0 is removed but names neither @id nor a key"),
        (##"{"value":[{"@odata.context":"#Tasks/$deletedEntity","reason":"deleted"}]}"##, #"a deleted entity without a string "id""#),
        (#"{"value":[],"@odata.nextLink":5}"#, "the page's @odata.nextLink is 5, not a URL"),
        (#"{"value":[],"@odata.deltaLink":""}"#, #"the page's @odata.deltaLink is "", not a URL"#),
        (#"{"value":[],"@odata.count":-1}"#, "the page's @odata.count is -1, not a count"),
    ])
    func bodiesThatAreNotPagesAreBadResponses(body: String, says: String) {
        let error = #expect(throws: OfflineStoreError.self) { try Self.read(body) }
        #expect(error?.code == .badResponse)
        #expect(error?.message.contains(says) == true, "\(error?.message ?? "")")
    }
}
