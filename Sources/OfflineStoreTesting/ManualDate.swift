import Foundation
import OfflineStore

/// A wall-clock date that moves only when a test moves it; pass ``now`` where a
/// `@Sendable () -> Date` is wanted.
///
/// ```swift
/// let date = ManualDate()
/// let backend = InMemoryBackend(now: date.now)
/// date.advance(by: .seconds(60))
/// ```
public final class ManualDate: Sendable {
    private let current: Locked<Date>

    /// Creates a date standing at `date` (by default 2027-01-15T08:00:00Z, a fixed instant).
    public init(_ date: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Locked(date)
    }

    /// The current date.
    public var date: Date { current.withLock { $0 } }

    /// A function returning the current date, for `now:` parameters.
    public var now: @Sendable () -> Date { { [self] in date } }

    /// Moves the date forward (or back, with a negative duration).
    public func advance(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let interval = Double(seconds) + Double(attoseconds) / 1e18
        current.withLock { $0 += interval }
    }

    /// Sets the date.
    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
