@testable import OfflineStore
import Testing

@Suite("OData key midpoint")
struct ODataKeyMidpointTests {
    @Test func guidsSplitByTheNumberOfTheirDigits() {
        #expect(ODataKeyMidpoint.between("00000000-0000-4000-8000-000000000000", "00000000-0000-4000-8000-000000000010",
                                         type: .guid) == "00000000-0000-4000-8000-000000000008")
        #expect(ODataKeyMidpoint.between("00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
                                         type: .guid) == "7fffffff-ffff-ffff-ffff-ffffffffffff")
        // The low halves carry into the high half.
        #expect(ODataKeyMidpoint.between("00000000-0000-0001-ffff-ffffffffffff", "00000000-0000-0002-ffff-ffffffffffff",
                                         type: .guid) == "00000000-0000-0002-7fff-ffffffffffff")
        // The high halves' sum overflows 64 bits.
        #expect(ODataKeyMidpoint.between("80000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
                                         type: .guid) == "bfffffff-ffff-ffff-ffff-ffffffffffff")
        // An odd difference rounds down, and the result stays strictly between.
        #expect(ODataKeyMidpoint.between("00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000004",
                                         type: .guid) == "00000000-0000-4000-8000-000000000002")
    }

    @Test func integersSplitByValueWithoutOverflow() {
        #expect(ODataKeyMidpoint.between("3", "40", type: .int32) == "21")
        #expect(ODataKeyMidpoint.between("-10", "10", type: .int64) == "0")
        #expect(ODataKeyMidpoint.between("\(Int64.min)", "\(Int64.max)", type: .int64) == "-1")
        #expect(ODataKeyMidpoint.between("\(Int32.max - 4)", "\(Int32.max)", type: .int32) == "\(Int32.max - 2)")
    }

    @Test func noKeyBetweenIsNil() {
        #expect(ODataKeyMidpoint.between("4", "5", type: .int32) == nil)
        #expect(ODataKeyMidpoint.between("5", "5", type: .int64) == nil)
        #expect(ODataKeyMidpoint.between("9", "5", type: .int64) == nil, "the larger first")
        #expect(ODataKeyMidpoint.between("00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002",
                                         type: .guid) == nil)
        #expect(ODataKeyMidpoint.between("a", "z", type: .string) == nil, "strings have no arithmetic")
    }

    @Test func whatIsNotAKeyOfTheTypeIsNil() {
        #expect(ODataKeyMidpoint.between("00000000-0000-4000-8000-00000000000G", "ffffffff-ffff-ffff-ffff-ffffffffffff",
                                         type: .guid) == nil)
        #expect(ODataKeyMidpoint.between("00000000-0000-4000-8000-000000000001", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
                                         type: .guid) == nil, "the store's ids are lower case")
        #expect(ODataKeyMidpoint.between("1", "\(Int64(Int32.max) + 10)", type: .int32) == nil, "out of Int32's range")
        #expect(ODataKeyMidpoint.between("01", "9", type: .int64) == nil, "a leading zero is not a store id")
    }
}
