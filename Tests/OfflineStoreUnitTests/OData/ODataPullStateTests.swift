@testable import OfflineStore
import Testing

@Suite("OData pull state: key ranges in turn")
struct ODataPullStateTests {
    static func state(_ next: ODataPullState.Next, waiting: [ODataPullState.Next] = []) -> ODataPullState {
        var state = ODataPullState(next: next, deltaLink: nil, restarted: false)
        state.waiting = waiting
        return state
    }

    @Test func oneRangeGoesOnAfterItsLastKeyAndEndsWithItsLastPage() {
        let state = Self.state(.after("a"))
        #expect(state.following(after: "c") == .after("c"))
        #expect(state.turned(following: .after("c"))?.next == .after("c"))
        #expect(state.turned(following: .after("c"))?.waiting == [])
        #expect(state.turned(following: nil) == nil, "no range left: the pull's last page")
    }

    @Test func aSplitReadsTheKeysUpToThePivotThenTheKeysAfterIt() {
        let split = Self.state(.after("c")).split(at: "m")
        #expect(split.next == .range(after: "c", upTo: "m"))
        #expect(split.waiting == [.afterBoth(after: "c", pivot: "m")], "after both: nothing of the first page again")
        #expect(split.following(after: "f") == .range(after: "f", upTo: "m"), "a range keeps its bound")
        var upper = split
        upper.next = .afterBoth(after: "c", pivot: "m")
        #expect(upper.following(after: "p") == .after("p"), "past its first page the upper range is the keys after its last")
    }

    @Test func rangesTakeTurnsAndOneThatEndsLeavesTheOther() {
        let split = Self.state(.after("c")).split(at: "m")
        let second = split.turned(following: .range(after: "f", upTo: "m"))
        #expect(second?.next == .afterBoth(after: "c", pivot: "m"))
        #expect(second?.waiting == [.range(after: "f", upTo: "m")])
        let third = second?.turned(following: .after("p"))
        #expect(third?.next == .range(after: "f", upTo: "m"))
        #expect(third?.waiting == [.after("p")])
        // The lower range ends: the upper one goes on alone, then ends the pull.
        let fourth = third?.turned(following: nil)
        #expect(fourth?.next == .after("p"))
        #expect(fourth?.waiting == [])
        #expect(fourth?.turned(following: nil) == nil)
    }

    @Test func onlyAnUnboundedKeyRangeSplits() {
        let link = Self.state(.link("http://127.0.0.1:9/odata/Tasks?$skiptoken=3"))
        #expect(link.split(at: "m") == link, "a service's own next links are not split")
        let range = Self.state(.range(after: "a", upTo: "m"), waiting: [.afterBoth(after: "a", pivot: "m")])
        #expect(range.split(at: "f") == range, "a split pull does not split again")
    }

    @Test func aTokenWrittenBeforeKeyRangesIsReadAsOneRange() throws {
        let token = #"{"next":{"after":{"_0":"c"}},"restarted":false,"delta":false,"incremental":false}"#
        let state = try ODataPullState(PullContinuation(token: token))
        #expect(state.next == .after("c") && state.waiting == [])
        let error = #expect(throws: OfflineStoreError.self) { try ODataPullState(PullContinuation(token: #"{"next":1}"#)) }
        #expect(error?.code == .invalidOperation)
    }

    @Test func theStateWithItsWaitingRangesSurvivesItsToken() throws {
        let split = Self.state(.after("c")).split(at: "m")
        #expect(try ODataPullState(split.continuation) == split)
    }
}
