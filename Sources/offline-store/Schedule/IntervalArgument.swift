import OfflineStore

/// Parses `--every` values: a positive number and a unit, `ms`, `s`, `m` or `h`
/// (`200ms`, `30s`, `1.5m`, `1h`).
enum IntervalArgument {
    struct Invalid: Error, CustomStringConvertible {
        let text: String
        var description: String {
            "'\(text)' is not a duration: use a positive number and a unit, ms, s, m or h (e.g. 200ms, 30s, 5m, 1h)"
        }
    }

    static func parse(_ text: String) throws -> Duration {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        for (unit, seconds) in units where text.hasSuffix(unit) {
            let number = text.dropLast(unit.count)
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                  let value = Double(number), value.isFinite, value > 0 else { break }
            let total = value * seconds
            guard total >= 0.001, total <= 366 * 24 * 3600 else { break }
            return .milliseconds(Int64((total * 1000).rounded()))
        }
        throw Invalid(text: text)
    }

    /// A duration in the largest unit that divides it: `200ms`, `30s`, `5m`, `1h`.
    static func describe(_ duration: Duration) -> String {
        let milliseconds = Int64((duration.seconds * 1000).rounded())
        for (unit, size) in [("h", Int64(3_600_000)), ("m", 60_000), ("s", 1000)] where milliseconds % size == 0 {
            return "\(milliseconds / size)\(unit)"
        }
        return "\(milliseconds)ms"
    }
}
