/// When the next scheduled sync runs: every `interval` after a run that worked; after
/// failures, exponential backoff with jitter (pure: the caller supplies the randomness).
///
/// After the n-th failure in a row the wait is `interval × 2ⁿ`, capped at
/// `max(interval, maximumBackoff)`, scaled by a random factor in [0.5, 1] ("equal
/// jitter", so many clients that failed together do not come back together), and never
/// shorter than a wait the server asked for (Retry-After / Backoff).
public struct SyncSchedule: Sendable, Hashable {
    /// The wait after a run that worked.
    public let interval: Duration
    /// The longest backoff, unless the interval itself is longer. Default 15 minutes.
    public let maximumBackoff: Duration
    /// Failed runs since the last one that worked.
    public private(set) var consecutiveFailures = 0

    /// A schedule with no failures yet.
    public init(interval: Duration, maximumBackoff: Duration = .seconds(15 * 60)) {
        self.interval = interval
        self.maximumBackoff = maximumBackoff
    }

    /// Records a run that reached the server and returns the wait before the next one.
    public mutating func succeeded() -> Duration {
        consecutiveFailures = 0
        return interval
    }

    /// Records a failed run and returns the wait before the next one.
    ///
    /// - Parameters:
    ///   - retryAfter: the wait the server asked for, if any.
    ///   - jitter: a random number in [0, 1].
    public mutating func failed(retryAfter: Duration?, jitter: Double) -> Duration {
        consecutiveFailures += 1
        let cap = max(interval, maximumBackoff)
        let exponent = min(consecutiveFailures, 30)
        let factor = Double(1 << exponent)
        let base = interval.timeInterval * factor >= cap.timeInterval ? cap : interval * factor
        let jittered = base * (0.5 + 0.5 * min(max(jitter, 0), 1))
        return max(jittered, retryAfter ?? .zero)
    }
}
