/// What an error status means for one pushed operation, once 2xx, 401/403, the conflicts
/// (409/412) and the 404s a delete or update expects are set apart (pure).
///
/// | status | decision |
/// |---|---|
/// | 408, 425, 429, 502, 503, 504, and any 5xx not named below | retry: the entry stays pending and the flush stops, honouring `Retry-After` |
/// | 500 | retry, up to the entry's third send; the third 500 in a row rejects it (a server that fails on this payload every time would otherwise block the queue for ever) |
/// | 501, 505, 506, 508, 510 | reject at once: the server says it cannot ever do this |
/// | other 4xx (400, 422, …) | reject: the entry becomes failed with the server's answer |
enum RESTFailureRule: Equatable, Sendable {
    case retry
    case reject

    /// The 4xx statuses that ask to come back later.
    static let transientClientErrors: Set<Int> = [408, 425, 429]
    /// The 5xx statuses that say no retry can succeed.
    static let permanentServerErrors: Set<Int> = [501, 505, 506, 508, 510]
    /// How many sends answered 500 make a rejection.
    static let attemptsAnswered500 = 3

    /// The decision for `status` on the operation's `attempt`-th send (1 for the first).
    static func decide(status: Int, attempt: Int) -> RESTFailureRule {
        switch status {
        case _ where transientClientErrors.contains(status): .retry
        case 400..<500: .reject
        case _ where permanentServerErrors.contains(status): .reject
        case 500: attempt >= attemptsAnswered500 ? .reject : .retry
        default: .retry
        }
    }
}
