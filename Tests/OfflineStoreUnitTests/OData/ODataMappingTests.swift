import Foundation
@testable import OfflineStore
import Testing

/// `ODataRecordMapping` and `ODataFilter`: entities ⇄ objects, bodies of writes, and scopes
/// as `$filter`, on the fixture's `$metadata`.
@Suite("OData record mapping and filters")
struct ODataMappingTests {
    static func mapping(_ set: String) throws -> ODataRecordMapping {
        try ODataRecordMapping(set: try ODataMetadata.read(Data(ODataSamples.fixtureMetadata.utf8)).entitySet(set))
    }

    @Test func anEntityBecomesAnObjectKeyedByIdReferencesAsText() throws {
        let orders = try Self.mapping("Orders")
        let (id, object) = try orders.object(["ID": 7, "CustomerID": 3, "Product": "p", "Quantity": 2,
                                              "CreatedAt": "2026-11-28T02:56:59.99Z"], what: "t")
        #expect(id == "7")
        #expect(object == ["id": "7", "CustomerID": "3", "Product": "p", "Quantity": 2, "CreatedAt": "2026-11-28T02:56:59.99Z"])
        #expect(orders.references == ["CustomerID": "Customers"])
        #expect(orders.assignsKeys && orders.serverManaged == ["CreatedAt", "ModifiedAt"])
    }

    @Test func aGuidKeyIsTheClients() throws {
        let tasks = try Self.mapping("Tasks")
        #expect(!tasks.assignsKeys && tasks.references.isEmpty)
        let (id, _) = try tasks.object(["ID": "6C2F0000-0000-4000-8000-000000000001", "Title": "t"], what: "t")
        #expect(id == "6c2f0000-0000-4000-8000-000000000001")
    }

    @Test func aBodyLeavesOutIdComputedAndTypesReferencesAndClientKeys() throws {
        let orders = try Self.mapping("Orders")
        let body = try orders.body(["id": "tmp", "CustomerID": "3", "Quantity": 2, "ModifiedAt": "x"], id: "tmp", includeKey: false)
        #expect(body == ["CustomerID": 3, "Quantity": 2])
        let tasks = try Self.mapping("Tasks")
        let id = "00000000-0000-4000-8000-0000000000a1"
        #expect(try tasks.body(["id": .string(id), "Title": "one"], id: id, includeKey: true) == ["ID": .string(id), "Title": "one"])
        let bad = #expect(throws: OfflineStoreError.self) { try orders.body(["CustomerID": "a temporary id"], id: "x", includeKey: false) }
        #expect(bad?.code == .invalidJSON)
        let badKey = #expect(throws: OfflineStoreError.self) { try tasks.body(["Title": "t"], id: "NOT-A-GUID", includeKey: true) }
        #expect(badKey?.code == .invalidID)
    }

    @Test func aCopyHoldsASentWriteWhateverTheServerWroteItself() throws {
        let tasks = try Self.mapping("Tasks")
        let copy: JSONValue = ["id": "a", "Title": "t", "Done": false, "ModifiedAt": "later"]
        #expect(tasks.holds(copy, sent: ["id": "a", "Title": "t", "ModifiedAt": "earlier"]))
        #expect(!tasks.holds(copy, sent: ["id": "a", "Title": "other"]))
    }

    struct FilterRow: Sendable, CustomTestStringConvertible {
        let set: String
        let terms: [ServerQuery.Term]
        let expected: String?
        var testDescription: String { expected ?? "nil" }
    }

    static let filters: [FilterRow] = [
        FilterRow(set: "Tasks", terms: [.equal("Title", "O'Neil")], expected: "Title eq 'O''Neil'"),
        FilterRow(set: "Tasks", terms: [.equal("Done", true), .greaterThan("Priority", 2)], expected: "Done eq true and Priority gt 2"),
        FilterRow(set: "Tasks", terms: [.equal("id", "00000000-0000-4000-8000-0000000000A1")],
                  expected: "ID eq 00000000-0000-4000-8000-0000000000a1"),
        FilterRow(set: "Orders", terms: [.isIn("CustomerID", ["3", "4"])], expected: "(CustomerID eq 3 or CustomerID eq 4)"),
        FilterRow(set: "Orders", terms: [.init("Quantity", .notIn, [1, 2])], expected: "(Quantity ne 1 and Quantity ne 2)"),
        FilterRow(set: "Tasks", terms: [.init("Notes", .contains, "x")], expected: "contains(Notes,'x')"),
        FilterRow(set: "Tasks", terms: [.init("Priority", .atMost, 3), .init("Priority", .atLeast, 1)],
                  expected: "Priority le 3 and Priority ge 1"),
        FilterRow(set: "Tasks", terms: [.equal("CreatedAt", "2026-11-28T00:00:00Z")], expected: "CreatedAt eq 2026-11-28T00:00:00Z"),
        // Untranslatable terms are dropped: the engine applies the whole scope again.
        FilterRow(set: "Tasks", terms: [.equal("Unknown", 1), .init("Notes", .has, true)], expected: nil),
        FilterRow(set: "Tasks", terms: [.equal("Title", 3), .equal("Done", false)], expected: "Done eq false"),
        FilterRow(set: "Tasks", terms: [.equal("ID", "x")], expected: nil),
    ]

    @Test(arguments: filters) func scopesBecomeFilters(_ row: FilterRow) throws {
        #expect(ODataFilter.expression(ServerQuery(row.terms), mapping: try Self.mapping(row.set)) == row.expected)
    }
}
