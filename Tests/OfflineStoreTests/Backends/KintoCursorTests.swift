import Testing
@testable import OfflineStore

/// The pure reading of Kinto pull cursors and HTTP dates (no server).
@Suite struct KintoCursorTests {
    @Test(arguments: [
        (nil, 5_000, nil),
        ("abc", 5_000, nil),
        ("10000", 5_000, 5_000),
        ("\"10000\"", 5_000, 5_000),      // an ETag as it came, quotes and all
        ("3000", 5_000, 0),               // never below 0
        ("10000", 0, 10_000),
        ("-9223372036854775808", 5_000, 0),  // a hostile cursor does not trap
    ] as [(String?, Int64, Int64?)])
    func sinceIsTheCursorLessTheLookBack(_ cursor: String?, _ lookBack: Int64, _ expected: Int64?) {
        #expect(KintoCursor.since(cursor, lookBack: lookBack) == expected)
    }

    @Test(arguments: [
        // bound, answered at, look-back → cursor
        (100_000, nil, 5_000, 100_000),            // no Date: the window stays open
        (100_000, 100_500, 5_000, 100_000),        // answered right after the last change
        (100_000, 109_999, 5_000, 100_000),        // just short of twice the look-back
        (100_000, 110_000, 5_000, 105_000),        // closed: the next pull starts at the bound
        (100_000, 900_000, 5_000, 105_000),
        (100_000, 900_000, 0, 100_000),            // no look-back: nothing to close
        (Int64.max - 1, Int64.max, 5_000, Int64.max - 1),  // no overflow
    ] as [(Int64, Int64?, Int64, Int64)])
    func aPullClosesTheWindowOnlyTwiceTheLookBackAfterTheBound(_ bound: Int64, _ answeredAt: Int64?, _ lookBack: Int64,
                                                             _ expected: Int64) {
        let cursor = KintoCursor.afterPull(bound: bound, answeredAt: answeredAt, lookBack: lookBack)
        #expect(cursor == expected)
        // Whatever it stores, the next pull starts at or below the bound: nothing at or below it is skipped.
        #expect(KintoCursor.since(String(cursor), lookBack: lookBack)! <= bound)
    }

    @Test(arguments: [
        ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777_000),
        ("Sat, 21 Nov 2026 13:17:04 GMT", 1_795_267_024_000),
        ("Tue, 29 Feb 2028 23:59:59 GMT", 1_835_481_599_000),
        ("Sun, 06 Nov 1994 08:49:37 UTC", nil),
        ("Sunday, 06-Nov-94 08:49:37 GMT", nil),
        ("Sun Nov  6 08:49:37 1994", nil),
        ("Sun, 06 Foo 1994 08:49:37 GMT", nil),
        ("Sun, 06 Nov 1994 25:49:37 GMT", nil),
        ("", nil),
    ] as [(String, Int64?)])
    func httpDatesReadAsMilliseconds(_ text: String, _ expected: Int64?) {
        #expect(HTTPDate.milliseconds(text) == expected)
    }
}
