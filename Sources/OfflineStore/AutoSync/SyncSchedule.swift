/// When the next scheduled sync runs: every `interval` after a run that worked; after
/// failures, exponential backoff with jitter (pure: the caller supplies the randomness).
///
/// After the n-th failure in a row the wait is `interval × 2ⁿ`, capped at
/// `max(interval, maximumBackoff)`, scaled by a random factor in [0.5, 1] ("equal
/// jitter", so many clients that failed together do not come back together), and never
/// shorter than a wait the server asked for (Retry-After / Backoff).
struct SyncSchedule {
    /// The wait after a run that worked.
    let interval: Duration
    /// The longest backoff, unless the interval itself is longer. Default 15 minutes.
    let maximumBackoff: Duration
    /// Failed runs since the last one that worked.
    private(set) var consecutiveFailures = 0

    init(interval: Duration, maximumBackoff: Duration = .seconds(15 * 60)) {
        self.interval = interval
        self.maximumBackoff = maximumBackoff
    }

    /// Records a run that reached the server and returns the wait before the next one.
    mutating func succeeded() -> Duration {
        consecutiveFailures = 0
        return interval
    }

    /// Records a failed run and returns the wait before the next one.
    ///
    /// - Parameters:
    ///   - retryAfter: the wait the server asked for, if any.
    ///   - jitter: a random number in [0, 1].
    mutating func failed(retryAfter: Duration?, jitter: Double) -> Duration {
        consecutiveFailures += 1
        let cap = max(interval, maximumBackoff)
        let exponent = min(consecutiveFailures, 30)
        let factor = Double(1 << exponent)
        let base = interval.seconds * factor >= cap.seconds ? cap : interval * factor
        let jittered = base * (0.5 + 0.5 * min(max(jitter, 0), 1))
        return max(jittered, retryAfter ?? .zero)
    }
}

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
