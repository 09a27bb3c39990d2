import Foundation
import OfflineStore
import OfflineStoreServerCheck
import Testing

/// `check-server` on an OData service: the verdicts from what a probe saw (pure), and the
/// command against the fixture's delta and plain modes, which differ in every row but paging
/// and batch.
@Suite("OData server check")
struct ODataServerCheckTests {
    typealias Outcome = ODataServerCheck.Outcome

    static func outcomes(_ rows: [ODataServerCheck.Row]) -> [String: Outcome] {
        Dictionary(uniqueKeysWithValues: rows.map { ($0.guarantee.rawValue, $0.outcome) })
    }

    /// What a probe of the delta mode sees (Docs/ODataFacts.md).
    static var deltaFacts: ODataProbeFacts {
        var facts = ODataProbeFacts(entitySet: "Tasks")
        (facts.createdETag, facts.updatedETag, facts.staleUpdateStatus, facts.noIfMatchStatus) = (#"W/"1""#, #"W/"2""#, 412, 428)
        (facts.trackChangesApplied, facts.deltaLink, facts.deltaStatus, facts.deltaListedRemoval) = (true, true, 200, true)
        (facts.pages, facts.listed, facts.pageSize, facts.count, facts.maxPageSizeHonoured) = (3, 250, 100, 250, true)
        (facts.batchStatus, facts.batchListed, facts.groupAnswers, facts.groupCreateApplied) = (200, true, ["2": 412], false)
        (facts.resentCreateStatus, facts.resentDeleteStatus) = (409, 404)
        return facts
    }

    /// What a probe of the plain mode sees.
    static var plainFacts: ODataProbeFacts {
        var facts = deltaFacts
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        (facts.createdETag, facts.updatedETag, facts.noIfMatchStatus) = ("W/\"\(now)\"", "W/\"\(now + 15)\"", 204)
        (facts.trackChangesApplied, facts.deltaLink, facts.deltaStatus, facts.deltaListedRemoval) = (false, false, nil, nil)
        facts.maxPageSizeHonoured = false
        facts.groupAnswers = ["1": 201, "2": 412]
        (facts.resentCreateStatus, facts.resentCreateBody, facts.resentDeleteStatus) = (500, "error InternalServerError: …", 412)
        return facts
    }

    @Test func theDeltaModeHoldsEverywhere() {
        let check = ODataServerCheck(facts: Self.deltaFacts)
        #expect(check.holds)
        #expect(check.rows.map(\.guarantee) == ODataServerCheck.Guarantee.allCases)
        #expect(check.rows.allSatisfy { $0.outcome == .holds && $0.fix == nil }, "\(check.rows.map(\.detail))")
        let paging = check.rows.first { $0.guarantee == .paging }
        #expect(paging?.detail == "a read of the whole set listed 250 entities in 3 pages, pages of 100, by @odata.nextLink; "
            + "Prefer: odata.maxpagesize=1 gave pages of one")
    }

    @Test func thePlainModeFailsOnlyWhatTheStoreDoesNotRelyOn() {
        let check = ODataServerCheck(facts: Self.plainFacts)
        #expect(check.holds, "nothing the store relies on fails")
        #expect(Self.outcomes(check.rows) == [
            "staleUpdate": .holds, "ifMatchRequired": .fails, "changeTracking": .fails, "paging": .holds, "batch": .holds,
            "atomicityGroups": .fails, "resentCreate": .fails, "resentDelete": .fails, "deletions": .fails,
        ])
        let rows = Dictionary(uniqueKeysWithValues: check.rows.map { ($0.guarantee, $0) })
        #expect(rows[.staleUpdate]?.detail.contains("the time of the last write in milliseconds") == true)
        #expect(rows[.deletions]?.detail.contains("250 entities in pages of 100, 3 requests per full read") == true)
        #expect(rows[.changeTracking]?.fix?.contains("changedSince") == true)
        #expect(rows[.atomicityGroups]?.detail.contains("still lists 201 for the create it rolled back") == true)
        #expect(rows[.resentCreate]?.fix == nil && rows[.resentCreate]?.store.contains("reading the entity") == true)
    }

    @Test func whatTheStoreReliesOnMakesTheCheckFail() {
        var noETags = Self.deltaFacts
        (noETags.createdETag, noETags.updatedETag) = (nil, nil)
        var ignored = Self.deltaFacts
        ignored.staleUpdateStatus = 204
        var notAtomic = Self.deltaFacts
        (notAtomic.groupAnswers, notAtomic.groupCreateApplied) = (["1": 201, "2": 412], true)
        var lostDeletion = Self.deltaFacts
        lostDeletion.deltaListedRemoval = false
        var repeats = Self.deltaFacts
        repeats.repeated = 2
        for (facts, guarantee) in [(noETags, ODataServerCheck.Guarantee.staleUpdate), (ignored, .staleUpdate),
                                   (notAtomic, .atomicityGroups), (lostDeletion, .changeTracking), (repeats, .paging)] {
            let check = ODataServerCheck(facts: facts)
            #expect(!check.holds)
            #expect(check.rows.filter(\.isMissing).map(\.guarantee) == [guarantee])
            #expect(check.rows.filter(\.isMissing).allSatisfy { $0.fix != nil })
        }
    }

    @Test func aStoppedProbeLeavesItsRowsNotChecked() {
        var facts = ODataProbeFacts(entitySet: "Orders")
        for guarantee in ODataServerCheck.Guarantee.allCases { facts.unchecked[guarantee] = "refused the scratch entity" }
        let check = ODataServerCheck(facts: facts)
        #expect(check.holds && check.rows.allSatisfy { $0.outcome == .notChecked && $0.detail == "refused the scratch entity" })
        #expect(check.table.hasPrefix("Orders.staleUpdate      not checked: refused the scratch entity\n"), "\(check.table)")
        #expect(check.rows[0].json["store"]?.stringValue?.isEmpty == false && check.rows[0].json["fix"] == .null)
    }

    // MARK: Against the fixture

    static let expected: [ODataServer.Mode: [String: String]] = [
        .delta: ["staleUpdate": "holds", "ifMatchRequired": "holds", "changeTracking": "holds", "paging": "holds",
                 "batch": "holds", "atomicityGroups": "holds", "resentCreate": "holds", "resentDelete": "holds", "deletions": "holds"],
        .plain: ["staleUpdate": "holds", "ifMatchRequired": "fails", "changeTracking": "fails", "paging": "holds",
                 "batch": "holds", "atomicityGroups": "fails", "resentCreate": "fails", "resentDelete": "fails", "deletions": "fails"],
    ]

    @Test(.liveServer, .timeLimit(.minutes(3)), arguments: ODataServer.Mode.allCases)
    func theCommandReportsEachModeAndCleansUp(mode: ODataServer.Mode) async throws {
        try await CLIWorkspace.with { workspace in
            let store = workspace.store()
            try #require(try await CLIODataTests.initialise(store, server: try ODataServer.url(mode).absoluteString).status == 0)
            let title = ODataServer.uniqueTitle("cli-check")
            let result = try await store.expect(0, "check-server", "Tasks", "--sample", #"Tasks={"Title":"\#(title)"}"#,
                                                environment: CLIODataTests.environment)
            let rows = try result.jsonLines()
            #expect(rows.count == ODataServerCheck.Guarantee.allCases.count, "\(result)")
            let outcomes = Dictionary(uniqueKeysWithValues: rows.map { ($0["guarantee"]?.stringValue ?? "", $0["outcome"]?.stringValue ?? "") })
            #expect(outcomes == Self.expected[mode], "\(result)")
            #expect(rows.allSatisfy { $0["collection"] == "Tasks" && $0["store"]?.stringValue?.isEmpty == false })
            #expect(rows.allSatisfy { $0["reliedOn"] != true || $0["outcome"] != "fails" })
            let left = try await ODataServer.request(mode, "GET", "Tasks?$filter=startswith(Title,'\(title)')")
            #expect(left.status == 200 && left.json?["value"]?.arrayValue?.isEmpty == true, "the scratch entities are removed: \(left)")

            // Server-assigned keys: a re-sent create cannot be probed; the text table has a row per guarantee.
            let table = try await store.expect(0, "check-server", "Customers", "--text", environment: CLIODataTests.environment)
            #expect(table.stdoutLines.filter { $0.hasPrefix("Customers.") }.count == 9, "\(table)")
            #expect(table.stdoutLines.contains { $0.hasPrefix("Customers.resentCreate") && $0.contains("not checked: the service assigns the keys") })
        }
    }

    @Test(.liveServer) func aSetTheServiceLacksOrNoSetAtAllIsAnError() async throws {
        try await CLIWorkspace.with { workspace in
            let store = workspace.store()
            try #require(try await CLIODataTests.initialise(store, server: try ODataServer.url(.delta).absoluteString).status == 0)
            let none = try await store.expect(1, "check-server", environment: CLIODataTests.environment)
            #expect(none.stderr.contains("name the entity sets to check"), "\(none)")
            let unknown = try await store.expect(1, "check-server", "Widgets", environment: CLIODataTests.environment)
            #expect(unknown.stderr.contains("no entity set Widgets"), "\(unknown)")
            try await store.expect(6, "check-server", "Tasks", environment: ["ODATA_PASSWORD": "wrong"])
        }
    }
}
