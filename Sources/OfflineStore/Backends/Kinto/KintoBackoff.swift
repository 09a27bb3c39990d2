import Foundation

/// When the server asked us to stay away until (`Backoff: N` on any answer,
/// `Retry-After: N` on a 503); a value type kept in the backend's mutex.
package struct KintoBackoff: Sendable, Hashable {
    /// The moment requests may be sent again; nil when the server never asked.
    private(set) var until: Date?

    /// Remembers a request to wait `seconds` from `now`; keeps the later deadline.
    mutating func record(seconds: Double, now: Date) {
        guard seconds.isFinite, seconds > 0 else { return }
        let deadline = now.addingTimeInterval(seconds)
        if let until, until >= deadline { return }
        until = deadline
    }

    /// How long to wait still, or nil when requests may be sent.
    func remaining(now: Date) -> Duration? {
        guard let until, until > now else { return nil }
        return Self.milliseconds(until.timeIntervalSince(now))
    }

    /// The seconds of a `Backoff` or `Retry-After` value (delta-seconds only; HTTP dates are ignored).
    static func seconds(_ header: String?) -> Double? {
        guard let text = header?.trimmingCharacters(in: .whitespaces), let seconds = Double(text),
              seconds.isFinite, seconds >= 0 else { return nil }
        return min(seconds, maximumSeconds)
    }

    /// The longest wait a server can impose (a day): a larger value (`Backoff: 1e300`)
    /// would overflow when turned into a duration.
    package static let maximumSeconds: Double = 86_400

    /// Seconds as a whole number of milliseconds, rounded up and kept within `Int64`.
    static func milliseconds(_ seconds: Double) -> Duration {
        .milliseconds(Int64(min((seconds * 1000).rounded(.up), 9e18)))
    }

    /// A header's seconds as a duration.
    package static func duration(_ header: String?) -> Duration? {
        seconds(header).map(milliseconds)
    }
}
