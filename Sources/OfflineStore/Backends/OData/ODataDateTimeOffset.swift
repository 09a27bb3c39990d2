/// An OData `Edm.DateTimeOffset` value as an instant (pure): parsed from the text a service
/// writes (`2026-11-28T02:56:59.99Z`, `2026-11-28T03:56:59+01:00`), compared, moved back by a
/// duration, and written as a UTC literal for a `$filter`.
///
/// Parsed exactly, to the nanosecond (further digits are cut off), without going through
/// `Date` (a `Double`), so that a value written back is the instant that was read; texts
/// of one instant with different precisions or offsets compare equal.
struct ODataDateTimeOffset: Sendable, Hashable, Comparable {
    /// Whole seconds since 1970-01-01T00:00:00Z.
    var seconds: Int64
    /// Nanoseconds within the second, `0..<1_000_000_000`.
    var nanoseconds: Int64

    init(seconds: Int64, nanoseconds: Int64) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// The instant a literal names: `YYYY-MM-DDThh:mm[:ss[.fraction]]` then `Z` or `±hh:mm`;
    /// nil for anything else (a four-digit year only).
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        var at = 0
        func number(_ count: Int) -> Int64? {
            guard at + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[at..<at + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            at += count
            return value
        }
        func skip(_ character: Character) -> Bool {
            guard at < bytes.count, bytes[at] == character.asciiValue else { return false }
            at += 1
            return true
        }
        guard let year = number(4), skip("-"), let month = number(2), skip("-"), let day = number(2),
              skip("T") || skip("t"), let hour = number(2), skip(":"), let minute = number(2) else { return nil }
        var second: Int64 = 0, nanoseconds: Int64 = 0
        if skip(":") {
            guard let value = number(2) else { return nil }
            second = value
            if skip(".") {
                var digits = 0
                while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) {
                    if digits < 9 { nanoseconds = nanoseconds * 10 + Int64(bytes[at] - UInt8(ascii: "0")) }
                    digits += 1
                    at += 1
                }
                guard digits > 0 else { return nil }
                for _ in digits..<max(digits, 9) { nanoseconds *= 10 }
            }
        }
        var offset: Int64 = 0
        if skip("Z") || skip("z") {
        } else if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") {
            let sign: Int64 = bytes[at] == UInt8(ascii: "-") ? -1 : 1
            at += 1
            guard let hours = number(2), skip(":"), let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard at == bytes.count, (1...12).contains(month), day >= 1, day <= Self.days(inMonth: month, of: year),
              hour < 24, minute < 60, second < 60 else { return nil }
        self.seconds = Self.daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        self.nanoseconds = nanoseconds
    }

    /// The instant `duration` earlier (a negative duration is later).
    func moved(back duration: Duration) -> ODataDateTimeOffset {
        let (wholeSeconds, attoseconds) = duration.components
        var seconds = self.seconds - wholeSeconds
        var nanoseconds = self.nanoseconds - attoseconds / 1_000_000_000
        while nanoseconds < 0 { nanoseconds += 1_000_000_000; seconds -= 1 }
        while nanoseconds >= 1_000_000_000 { nanoseconds -= 1_000_000_000; seconds += 1 }
        return ODataDateTimeOffset(seconds: seconds, nanoseconds: nanoseconds)
    }

    /// The UTC literal, `YYYY-MM-DDThh:mm:ss[.fraction]Z`, the fraction without trailing zeros.
    var literal: String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = seconds - days * 86_400
        let (year, month, day) = Self.civil(daysSinceEpoch: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text = "\(String(repeating: "0", count: max(0, 4 - String(year).count)))\(year)-\(two(month))-\(two(day))"
            + "T\(two(inDay / 3600)):\(two(inDay % 3600 / 60)):\(two(inDay % 60))"
        if nanoseconds > 0 {
            var fraction = String(nanoseconds)
            fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }

    static func < (lhs: ODataDateTimeOffset, rhs: ODataDateTimeOffset) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    private static func days(inMonth month: Int64, of year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's `days_from_civil`).
    private static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day count from 1970-01-01 (`civil_from_days`).
    private static func civil(daysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
