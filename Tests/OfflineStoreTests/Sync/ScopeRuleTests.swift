import Foundation
import Testing
@testable import OfflineStore

/// The sync-scope rules as values: departures, negations, and what a changed scope pulls once.
@Suite struct ScopeRuleTests {
    typealias Term = ServerQuery.Term
    static let north = Term.equal("region", "north")
    static let south = Term.equal("region", "south")
    static let open = Term.equal("done", false)

    @Test func aCleanCopyLeavesAndAnythingPendingStays() {
        var row = ObjectRow(collection: "c", id: "a")
        row.persistent = ["id": "a"]
        #expect(ScopeRule.departure(of: row, queued: false) == .remove)
        #expect(ScopeRule.departure(of: row, queued: true) == .keep)
        for state in [SyncState.conflicted, .failed] {
            var held = row
            held.state = state
            #expect(ScopeRule.departure(of: held, queued: false) == .keep, "\(state)")
        }
        var edited = row
        edited.dirty = true
        #expect(ScopeRule.departure(of: edited, queued: false) == .keep)
    }

    @Test func equalityMembershipAndPresenceHaveExactNegationsComparisonsNone() {
        for op in Term.Operator.allCases {
            let term = Term("n", op, op == .isIn || op == .notIn ? [1, 2] : op == .has ? true : op == .contains ? "x" : 3)
            guard let negated = ScopeRule.negation(of: term) else {
                #expect([.contains, .lessThan, .atLeast, .greaterThan, .atMost].contains(op), "\(op)")
                continue
            }
            for value: JSONValue? in [nil, 1, 2, 3, 4, "x", "xy"] {
                let record: JSONValue = value.map { ["n": $0] } ?? [:]
                #expect(term.matches(record["n"]) != negated.matches(record["n"]), "\(op) on \(String(describing: value))")
            }
        }
    }

    @Test(arguments: [
        (nil as ServerQuery?, ServerQuery([north]), nil as ScopeCatchUp?),                       // narrowing from everything
        (ServerQuery([north]), ServerQuery([north]), nil),                                     // unchanged
        (ServerQuery([north, open]), ServerQuery([north]), .queries([ServerQuery([north, Term("done", .notEqual, false)])])),
        (ServerQuery([north]), ServerQuery([south]), .queries([ServerQuery([south, Term("region", .notEqual, "north")])])),
        (ServerQuery([north]), nil, .queries([ServerQuery([Term("region", .notEqual, "north")])])),
        (ServerQuery([Term("title", .contains, "milk")]), ServerQuery([north]), .fullPull),
        (ServerQuery([Term("n", .lessThan, 3)]), nil, .fullPull),
    ] as [(ServerQuery?, ServerQuery?, ScopeCatchUp?)])
    func aChangedScopePullsOnceWhatItAdds(old: ServerQuery?, new: ServerQuery?, catchUp: ScopeCatchUp?) {
        #expect(ScopeRule.catchUp(from: old, to: new) == catchUp)
    }

    @Test func theCatchUpFindsExactlyTheRecordsTheNewScopeAdds() {
        let old = ServerQuery([Self.north, Self.open]), new = ServerQuery([Term.isIn("region", ["north", "south"])])
        guard case .queries(let queries) = ScopeRule.catchUp(from: old, to: new) else { Issue.record("no queries"); return }
        for region: JSONValue in ["north", "south", "east"] {
            for done: JSONValue in [true, false] {
                let record: JSONValue = ["region": region, "done": done]
                let added = new.matches(record) && !old.matches(record)
                #expect(queries.contains { $0.matches(record) } == added, "\(record.serialized())")
            }
        }
    }
}
