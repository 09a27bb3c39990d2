/// Where a full pull paged by key splits an entity set into two key ranges that it reads at
/// once (``ODataPullState``): a key strictly between two keys of the set, by value. Pure.
///
/// The midpoint only balances the two ranges; it never decides what the pull reads. After a
/// first page ending at `a`, the ranges are `Key gt a and Key le m` and `Key gt a and Key gt m`,
/// which split the keys after `a` in two whatever order the service keeps its keys in (a
/// service that orders Guids otherwise than by their digits, as SQL Server's `uniqueidentifier`
/// does, gets ranges of other sizes, at worst one empty, never a missed or doubled entity).
enum ODataKeyMidpoint {
    /// A key between `low` and `high` (store ids of `type`), or nil when there is none or the
    /// type has no arithmetic (`Edm.String`).
    ///
    /// - Guids by the 128-bit number of their 32 hexadecimal digits, the result in the store's
    ///   lower-case 8-4-4-4-12 form.
    /// - Integers by value.
    static func between(_ low: String, _ high: String, type: ODataKeyType) -> String? {
        switch type {
        case .string:
            return nil
        case .int32, .int64:
            guard let a = ODataKey.integer(low, type), let b = ODataKey.integer(high, type), a < b else { return nil }
            // a + (b - a) / 2 without overflow: the difference of two Int64 fits a UInt64.
            let middle = a + Int64(UInt64(bitPattern: b &- a) / 2)
            return middle > a && middle < b ? String(middle) : nil
        case .guid:
            guard let a = number(ofGuid: low), let b = number(ofGuid: high), a < b else { return nil }
            let middle = a.half(plus: b)
            return middle > a && middle < b ? guid(middle) : nil
        }
    }

    /// A Guid's digits as a 128-bit number, most significant half first.
    struct Number: Comparable {
        var high: UInt64
        var low: UInt64

        static func < (lhs: Number, rhs: Number) -> Bool {
            (lhs.high, lhs.low) < (rhs.high, rhs.low)
        }

        /// (self + other) / 2, rounded down, without losing the carry.
        func half(plus other: Number) -> Number {
            let (low, carry) = self.low.addingReportingOverflow(other.low)
            let (high, overflow) = self.high.addingReportingOverflow(other.high)
            let sumHigh = high &+ (carry ? 1 : 0)
            let topBit: UInt64 = (overflow || (carry && sumHigh == 0)) ? 1 << 63 : 0
            return Number(high: topBit | (sumHigh >> 1), low: (sumHigh << 63) | (low >> 1))
        }
    }

    /// The number of a lower-case Guid, or nil for anything else.
    static func number(ofGuid text: String) -> Number? {
        guard ODataKey.isGuid(text) else { return nil }
        let digits = text.utf8.filter { $0 != UInt8(ascii: "-") }
        var number = Number(high: 0, low: 0)
        for (index, byte) in digits.enumerated() {
            let value = UInt64(byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : byte - UInt8(ascii: "a") + 10)
            if index < 16 { number.high = number.high << 4 | value } else { number.low = number.low << 4 | value }
        }
        return number
    }

    /// The lower-case 8-4-4-4-12 form of a number.
    static func guid(_ number: Number) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var digits: [UInt8] = []
        digits.reserveCapacity(36)
        for index in 0..<32 {
            if [8, 12, 16, 20].contains(index) { digits.append(UInt8(ascii: "-")) }
            let half = index < 16 ? number.high : number.low
            digits.append(hex[Int(half >> UInt64(60 - 4 * (index % 16)) & 0xf)])
        }
        return String(decoding: digits, as: UTF8.self)
    }
}
