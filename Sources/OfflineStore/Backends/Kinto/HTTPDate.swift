/// Reads the HTTP `Date` header (RFC 9110 IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`)
/// into milliseconds since 1970, without a formatter or a locale.
package enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The instant in milliseconds since 1970 (UTC), or nil when `text` is not an IMF-fixdate.
    package static func milliseconds(_ text: String) -> Int64? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
              parts[1].count == 2, let day = Int64(parts[1]), (1...31).contains(day),
              let month = months.firstIndex(of: String(parts[2])),
              parts[3].count == 4, let year = Int64(parts[3]), year >= 1970 else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
              let hour = Int64(clock[0]), let minute = Int64(clock[1]), let second = Int64(clock[2]),
              hour < 24, minute < 60, second < 61 else { return nil }
        let days = daysFromCivil(year: year, month: Int64(month) + 1, day: day)
        return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
