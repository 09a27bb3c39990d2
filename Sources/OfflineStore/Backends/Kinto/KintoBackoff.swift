import Foundation

/// When the server asked us to stay away until (`Backoff: N` on any answer,
/// `Retry-After: N` on a 503); a value type kept in the backend's mutex.
struct KintoBackoff: Sendable, Hashable {
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
        let interval = until.timeIntervalSince(now)
        return .milliseconds(Int64((interval * 1000).rounded(.up)))
    }

    /// The seconds of a `Backoff` or `Retry-After` value (delta-seconds only; HTTP dates are ignored).
    static func seconds(_ header: String?) -> Double? {
        guard let text = header?.trimmingCharacters(in: .whitespaces), let seconds = Double(text),
              seconds.isFinite, seconds >= 0 else { return nil }
        return seconds
    }

    /// A header's seconds as a duration.
    static func duration(_ header: String?) -> Duration? {
        seconds(header).map { .milliseconds(Int64(($0 * 1000).rounded(.up))) }
    }
}
