import Foundation
@testable import OfflineStore
import Testing

/// The pure parts of changed-since pulls: `Edm.DateTimeOffset` values and the margin, the
/// `$filter` terms for each kind of property, the cursor's text, the sweep schedule.
@Suite("OData changed-since rules")
struct ODataChangedSinceTests {
    /// A set with one property of each kind a changed-since property may be, and one it may not.
    static let set = ODataEntitySet(
        name: "Things", entityType: "T.Thing", keyProperties: ["ID"],
        properties: [ODataProperty(name: "ID", type: "Edm.Guid", nullable: false),
                     ODataProperty(name: "ModifiedAt", type: "Edm.DateTimeOffset", nullable: false),
                     ODataProperty(name: "Version", type: "Edm.Int64", nullable: false),
                     ODataProperty(name: "Stamp", type: "Edm.String", nullable: false),
                     ODataProperty(name: "Done", type: "Edm.Boolean", nullable: false)],
        navigation: [], computed: ["ModifiedAt", "Version", "Stamp"], concurrency: nil)

    static func rule(_ property: String, margin: Duration = .seconds(2)) throws -> ODataChangedSince {
        try #require(try ODataChangedSince(ODataEntitySetSettings(changedSince: property, changedSinceMargin: margin), of: set))
    }

    @Test(arguments: [
        ("2026-11-28T02:56:59.99Z", "2026-11-28T02:56:59.99Z"),
        ("2026-11-28T02:56:59.990Z", "2026-11-28T02:56:59.99Z"),
        ("2026-11-28T03:56:59.99+01:00", "2026-11-28T02:56:59.99Z"),
        ("2026-11-27T23:26:59.99-03:30", "2026-11-28T02:56:59.99Z"),
        ("2026-11-28T02:56Z", "2026-11-28T02:56:00Z"),
        ("2024-02-29T00:00:00.000000001Z", "2024-02-29T00:00:00.000000001Z"),
        ("2024-02-29T00:00:00.1234567891234Z", "2024-02-29T00:00:00.123456789Z"),
        ("1969-12-31T23:59:59.5Z", "1969-12-31T23:59:59.5Z"),
        ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"),
    ])
    func aDateTimeOffsetIsWrittenBackAsTheSameInstantInUTC(text: String, literal: String) throws {
        #expect(try #require(ODataDateTimeOffset(text)).literal == literal)
    }

    @Test(arguments: ["yesterday", "2026-11-28T02:56:59.99", "2026-02-29T00:00:00Z", "2026-11-28T24:00:00Z",
                      "2026-11-28T02:56:59.Z", "2026-11-28T02:56:59Z trailing", "26-11-28T02:56:59Z", ""])
    func aTextThatIsNoDateTimeOffsetIsRefused(text: String) {
        #expect(ODataDateTimeOffset(text) == nil)
    }

    @Test func instantsCompareByTimeNotByText() throws {
        // As text "…15.4Z" sorts after "…15.408Z"; as instants it is earlier.
        let rule = try Self.rule("ModifiedAt")
        #expect(rule.isLater("2026-11-28T08:31:15.408Z", than: "2026-11-28T08:31:15.4Z"))
        #expect(!rule.isLater("2026-11-28T08:31:15.4Z", than: "2026-11-28T08:31:15.408Z"))
        #expect(!rule.isLater("2026-11-28T09:31:15.4+01:00", than: "2026-11-28T08:31:15.4Z"), "one instant")
        #expect(rule.latest("2026-11-28T08:31:15.4Z", "2026-11-28T08:31:15.408Z") == "2026-11-28T08:31:15.408Z")
        #expect(rule.latest(nil, "2026-11-28T08:31:15.4Z") == "2026-11-28T08:31:15.4Z")
        #expect(rule.latest("2026-11-28T08:31:15.4Z", nil) == "2026-11-28T08:31:15.4Z")
    }

    @Test(arguments: [
        ("2026-11-28T02:56:59.99Z", Duration.seconds(2), "2026-11-28T02:56:57.99Z"),
        ("2026-01-01T00:00:01.5Z", Duration.seconds(2), "2025-12-31T23:59:59.5Z"),
        ("2024-03-01T00:00:00Z", Duration.milliseconds(1), "2024-02-29T23:59:59.999Z"),
        ("2026-11-28T03:56:59.99+01:00", Duration.milliseconds(990), "2026-11-28T02:56:59Z"),
        ("2026-11-28T02:56:59.99Z", Duration.zero, "2026-11-28T02:56:59.99Z"),
        ("2026-11-28T02:56:59.99Z", Duration.seconds(86_400), "2026-11-27T02:56:59.99Z"),
    ])
    func theMarginIsSubtractedFromADateTimeOffsetCursor(cursor: String, margin: Duration, bound: String) throws {
        let rule = try Self.rule("ModifiedAt", margin: margin)
        #expect(rule.lowerBound(.string(cursor)) == bound)
        #expect(rule.since(.string(cursor)) == "ModifiedAt ge \(bound)")
    }

    @Test func theFilterTermsOfEachKindOfProperty() throws {
        let key = "00000000-0000-4000-8000-000000000001"
        let modified = try Self.rule("ModifiedAt")
        #expect(modified.after("2026-11-28T02:56:59.99Z", keyProperty: "ID", key: key)
            == "(ModifiedAt gt 2026-11-28T02:56:59.99Z) or (ModifiedAt eq 2026-11-28T02:56:59.99Z and ID gt \(key))",
                "the value as the service wrote it, not moved by the margin")
        #expect(modified.orderBy(keyProperty: "ID") == "ModifiedAt,ID")

        let version = try Self.rule("Version")
        #expect(version.since(42) == "Version ge 42", "a counter has no margin")
        #expect(version.after(42, keyProperty: "ID", key: key) == "(Version gt 42) or (Version eq 42 and ID gt \(key))")

        let stamp = try Self.rule("Stamp")
        #expect(stamp.since("o'k") == "Stamp ge 'o''k'")
        #expect(stamp.after("b", keyProperty: "ID", key: key) == "(Stamp gt 'b') or (Stamp eq 'b' and ID gt \(key))")
    }

    @Test func aValueNotOfThePropertysKindGivesNoFilter() throws {
        #expect(try Self.rule("ModifiedAt").since("last tuesday") == nil)
        #expect(try Self.rule("ModifiedAt").since(1_800_000_000_000) == nil)
        #expect(try Self.rule("Version").since("42") == nil)
        #expect(try Self.rule("Stamp").since(42) == nil)
        #expect(try Self.rule("ModifiedAt").value(in: ["ModifiedAt": .null]) == nil)
        #expect(try Self.rule("ModifiedAt").value(in: ["ModifiedAt": "2026-11-28T02:56:59.99Z"]) == "2026-11-28T02:56:59.99Z")
    }

    @Test func aPropertyTheSetDoesNotDeclareIsAConfigurationErrorNamingItsProperties() throws {
        let error = #expect(throws: OfflineStoreError.self) {
            try ODataChangedSince(ODataEntitySetSettings(changedSince: "UpdatedOn"), of: Self.set)
        }
        #expect(error?.code == .configuration)
        #expect(error?.message.contains("UpdatedOn") == true)
        #expect(error?.message.contains("ID, ModifiedAt, Version, Stamp, Done") == true)
    }

    @Test func aPropertyAPullCannotBeOrderedByIsAConfigurationError() throws {
        let error = #expect(throws: OfflineStoreError.self) {
            try ODataChangedSince(ODataEntitySetSettings(changedSince: "Done"), of: Self.set)
        }
        #expect(error?.code == .configuration)
        #expect(error?.message.contains("Edm.Boolean") == true)
        #expect(try ODataChangedSince(ODataEntitySetSettings(), of: Self.set) == nil, "no setting, no rule")
        #expect(try ODataChangedSince(nil, of: Self.set) == nil)
    }

    @Test func theCursorTextRoundTripsAndIsNeverADeltaLink() throws {
        let cursor = ODataChangedSinceCursor(property: "ModifiedAt", value: "2026-11-28T02:56:59.99Z", refreshes: 3)
        #expect(ODataChangedSinceCursor(text: cursor.text) == cursor)
        let counter = ODataChangedSinceCursor(property: "Version", value: 9_007_199_254_740_993, refreshes: 1)
        #expect(ODataChangedSinceCursor(text: counter.text) == counter, "a 64-bit integer is kept exactly")
        #expect(ODataChangedSinceCursor(text: "http://127.0.0.1:9/odata/Tasks?$deltatoken=7") == nil)
        #expect(!ODataChangedSinceCursor.isChangedSince("http://127.0.0.1:9/odata/Tasks?$deltatoken=7"))
        #expect(ODataChangedSinceCursor.isChangedSince("{damaged"))
        #expect(ODataChangedSinceCursor(text: "{damaged") == nil)
        #expect(ODataChangedSinceCursor(text: #"{"property":"ModifiedAt"}"#) == nil, "no count")
    }

    @Test(arguments: [
        // sweepEvery, then the pulls of refreshes 1, 2, 3, … from no cursor.
        (3, [ODataSweepSchedule.Pull.full, .incremental, .incremental, .full, .incremental, .incremental, .full]),
        (1, [.full, .full, .full]),
        (2, [.full, .incremental, .full, .incremental, .full]),
        (10, [.full] + Array(repeating: .incremental, count: 9) + [.full, .incremental]),
    ])
    func everySweepEveryThRefreshIsAFullPull(sweepEvery: Int, pulls: [ODataSweepSchedule.Pull]) {
        var refreshes: Int?
        var seen: [ODataSweepSchedule.Pull] = []
        for _ in pulls {
            let next = ODataSweepSchedule.next(after: refreshes, sweepEvery: sweepEvery)
            seen.append(next.pull)
            refreshes = next.refreshes
        }
        #expect(seen == pulls)
    }

    @Test func aCountThatCannotBeIsAFullPull() {
        #expect(ODataSweepSchedule.next(after: 0, sweepEvery: 10) == (.full, 1))
        #expect(ODataSweepSchedule.next(after: -4, sweepEvery: 10) == (.full, 1))
        #expect(ODataSweepSchedule.next(after: 57, sweepEvery: 10) == (.full, 1), "sweepEvery lowered since")
        #expect(ODataSweepSchedule.next(after: 4, sweepEvery: 10) == (.incremental, 5))
    }
}
