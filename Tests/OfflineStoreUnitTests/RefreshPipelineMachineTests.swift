@testable import OfflineStore
import Testing

/// The refresh's page pipeline: events in (changes delivered while a page downloads, a page's
/// end), actions out (wait for the transaction under way, apply, report, ask the next page).
@Suite("Refresh pipeline, the state machine")
struct RefreshPipelineMachineTests {
    typealias Action = RefreshPipeline.Action

    /// What the refresh feeds the pipeline.
    enum Event: Sendable, CustomStringConvertible {
        /// Changes `range` arrive while their page downloads.
        case delivered(Range<Int>)
        /// A page ends with changes `range` not delivered before, its cursor and its continuation.
        case pageEnded(Range<Int>, cursor: String?, next: String?, total: Int? = nil)

        var description: String {
            switch self {
            case .delivered(let range): "delivered \(range)"
            case .pageEnded(let range, let cursor, let next, _): "page \(range) cursor \(cursor ?? "-") next \(next ?? "-")"
            }
        }
    }

    static func changes(_ range: Range<Int>) -> [RemoteChange] {
        range.map { RemoteChange(id: "o\($0)", record: nil, version: "v\($0)") }
    }

    static func apply(_ range: Range<Int>, cursor: String? = nil) -> Action {
        .apply(changes(range), cursor: cursor)
    }

    static func feed(_ event: Event, to pipeline: inout RefreshPipeline) -> [Action] {
        switch event {
        case .delivered(let range):
            pipeline.delivered(changes(range))
        case .pageEnded(let range, let cursor, let next, let total):
            pipeline.pageEnded(PullPage(changes: changes(range), cursor: cursor, next: next.map(PullContinuation.init(token:)),
                                        total: total))
        }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let storesCursor: Bool
        let steps: [(Event, [Action])]
        var testDescription: String { name }
    }

    static let chunk = RefreshPipeline.chunkSize

    /// Each row: the events in order, and the actions each one answers.
    static let table: [Row] = [
        Row(name: "one page: applied with its cursor, then reported, then the pull ends", storesCursor: true, steps: [
            (.pageEnded(0..<3, cursor: "c1", next: nil, total: 3),
             [apply(0..<3, cursor: "c1"), .awaitTransaction, .reportProgress(count: 3, total: 3), .finish]),
        ]),
        Row(name: "two pages: the next page is asked while the first page's transaction runs", storesCursor: true, steps: [
            (.pageEnded(0..<2, cursor: "c1", next: "t1"), [apply(0..<2, cursor: "c1"), .fetch(PullContinuation(token: "t1"))]),
            (.pageEnded(2..<3, cursor: "c2", next: nil),
             [.awaitTransaction, .reportProgress(count: 2, total: nil), apply(2..<3, cursor: "c2"),
              .awaitTransaction, .reportProgress(count: 1, total: nil), .finish]),
        ]),
        Row(name: "an empty last page still stores its cursor, in a transaction of its own", storesCursor: true, steps: [
            (.pageEnded(0..<0, cursor: "c1", next: nil),
             [apply(0..<0, cursor: "c1"), .awaitTransaction, .reportProgress(count: 0, total: nil), .finish]),
        ]),
        Row(name: "a whole chunk delivered waits for more: a page of exactly one chunk is one transaction with its cursor",
            storesCursor: true, steps: [
                (.delivered(0..<chunk), []),
                (.pageEnded(chunk..<chunk, cursor: "c1", next: nil),
                 [apply(0..<chunk, cursor: "c1"), .awaitTransaction, .reportProgress(count: chunk, total: nil), .finish]),
            ]),
        Row(name: "a chunk goes once more arrived after it; the page's rest goes with its cursor", storesCursor: true, steps: [
            (.delivered(0..<chunk), []),
            (.delivered(chunk..<chunk + 1), [apply(0..<chunk)]),
            (.pageEnded(chunk + 1..<chunk + 2, cursor: "c1", next: nil),
             [.awaitTransaction, apply(chunk..<chunk + 2, cursor: "c1"),
              .awaitTransaction, .reportProgress(count: chunk + 2, total: nil), .finish]),
        ]),
        Row(name: "one delivery of two chunks and more: each chunk waits for the one before", storesCursor: true, steps: [
            (.delivered(0..<2 * chunk + 1), [apply(0..<chunk), .awaitTransaction, apply(chunk..<2 * chunk)]),
            (.pageEnded(0..<0, cursor: "c1", next: nil),
             [.awaitTransaction, apply(2 * chunk..<2 * chunk + 1, cursor: "c1"),
              .awaitTransaction, .reportProgress(count: 2 * chunk + 1, total: nil), .finish]),
        ]),
        Row(name: "the first page's progress is reported before the second page's chunks run", storesCursor: true, steps: [
            (.pageEnded(0..<1, cursor: "c1", next: "t1"), [apply(0..<1, cursor: "c1"), .fetch(PullContinuation(token: "t1"))]),
            (.delivered(1..<chunk + 2),
             [.awaitTransaction, .reportProgress(count: 1, total: nil), apply(1..<chunk + 1)]),
            (.pageEnded(chunk + 2..<chunk + 2, cursor: "c2", next: nil),
             [.awaitTransaction, apply(chunk + 1..<chunk + 2, cursor: "c2"),
              .awaitTransaction, .reportProgress(count: chunk + 1, total: nil), .finish]),
        ]),
        Row(name: "a pull whose cursor waits (scoped, catch-up) applies no cursor", storesCursor: false, steps: [
            (.pageEnded(0..<2, cursor: "c1", next: "t1"), [apply(0..<2), .fetch(PullContinuation(token: "t1"))]),
            (.pageEnded(2..<3, cursor: "c2", next: nil),
             [.awaitTransaction, .reportProgress(count: 2, total: nil), apply(2..<3),
              .awaitTransaction, .reportProgress(count: 1, total: nil), .finish]),
        ]),
    ]

    @Test(arguments: table)
    func eventsAnswerTheirActions(_ row: Row) {
        var pipeline = RefreshPipeline(storesCursor: row.storesCursor, collectsIDs: false)
        for (index, (event, expected)) in row.steps.enumerated() {
            let actions = Self.feed(event, to: &pipeline)
            #expect(actions == expected, "step \(index): \(event)")
        }
        #expect(!pipeline.underWay, "the pull ends with no transaction under way")
    }

    /// Whatever the deliveries, transactions run one at a time, in order, each change once, and
    /// only a page's last transaction carries its cursor.
    @Test(arguments: [[1, 1, 1], [499, 2, 500], [1_200], [500, 500, 500, 1], [0, 0, 501], [250, 250, 250, 250, 2]])
    func transactionsRunOneAtATimeInOrder(_ deliveries: [Int]) {
        var pipeline = RefreshPipeline(storesCursor: true, collectsIDs: true)
        var actions: [Action] = []
        var next = 0
        for (page, sizes) in [deliveries, Array(deliveries.reversed())].enumerated() {
            for size in sizes {
                actions += Self.feed(.delivered(next..<next + size), to: &pipeline)
                next += size
            }
            actions += Self.feed(.pageEnded(next..<next + 1, cursor: "c\(page)", next: page == 0 ? "t" : nil), to: &pipeline)
            next += 1
        }
        var applied: [String] = [], underWay = false, cursors: [String] = []
        for action in actions {
            switch action {
            case .awaitTransaction:
                #expect(underWay, "a wait with no transaction under way")
                underWay = false
            case .apply(let changes, let cursor):
                #expect(!underWay, "two transactions under way")
                #expect(changes.count <= RefreshPipeline.chunkSize || cursor != nil, "a chunk of more than chunkSize before a page's end")
                underWay = true
                applied += changes.map(\.id)
                if let cursor { cursors.append(cursor) }
            default: break
            }
        }
        #expect(!underWay)
        #expect(applied == (0..<next).map { "o\($0)" })
        #expect(cursors == ["c0", "c1"])
        #expect(pipeline.count == next)
        #expect(pipeline.ids.count == next)
        #expect(pipeline.ids["o0"] == "v0")
        #expect(pipeline.lastCursor == "c1")
        #expect(actions.filter { $0 == .finish }.count == 1)
        #expect(actions.last == .finish)
    }

    @Test func idsAreKeptOnlyWhenAsked() {
        var pipeline = RefreshPipeline(storesCursor: true, collectsIDs: false)
        _ = Self.feed(.pageEnded(0..<3, cursor: "c", next: nil), to: &pipeline)
        #expect(pipeline.ids.isEmpty)
        #expect(pipeline.count == 3)
    }

    @Test func theLastCursorIsTheLastPagesOrNil() {
        var pipeline = RefreshPipeline(storesCursor: false, collectsIDs: false)
        _ = Self.feed(.pageEnded(0..<1, cursor: "c1", next: "t"), to: &pipeline)
        #expect(pipeline.lastCursor == nil, "a page with a next page leaves the last cursor")
        _ = Self.feed(.pageEnded(1..<2, cursor: nil, next: nil), to: &pipeline)
        #expect(pipeline.lastCursor == nil, "a last page without a cursor: the stored one stays")
        var other = RefreshPipeline(storesCursor: false, collectsIDs: false)
        _ = Self.feed(.pageEnded(0..<1, cursor: "c9", next: nil), to: &other)
        #expect(other.lastCursor == "c9", "kept even when pages store no cursor (the scoped pull stores it later)")
    }

    @Test func aDeliveryHandsOverEvenWhenEmpty() {
        var pipeline = RefreshPipeline(storesCursor: true, collectsIDs: false)
        #expect(!pipeline.handedOver)
        _ = Self.feed(.delivered(0..<0), to: &pipeline)
        #expect(pipeline.handedOver, "a first page that failed after a delivery is not asked again")
    }

    @Test func aStopWaitsForTheTransactionUnderWayOnly() {
        var pipeline = RefreshPipeline(storesCursor: true, collectsIDs: false)
        #expect(pipeline.stopped() == [])
        _ = Self.feed(.delivered(0..<RefreshPipeline.chunkSize + 1), to: &pipeline)
        #expect(pipeline.stopped() == [.awaitTransaction])
        #expect(pipeline.stopped() == [], "waited once")
        #expect(pipeline.held.isEmpty, "held changes are dropped: the page is read again next time")
    }

    @Test(arguments: [(0, [Int]()), (1, [1]), (500, [500]), (501, [500, 1]), (1_000, [500, 500]), (1_234, [500, 500, 234])])
    func chunksCutInOrder(_ count: Int, _ sizes: [Int]) {
        let changes = Self.changes(0..<count)
        let chunks = RefreshPipeline.chunks(of: changes)
        #expect(chunks.map(\.count) == sizes)
        #expect(chunks.flatMap { $0 } == changes)
    }
}
