import Foundation

/// What the server's answer to one sent entry means for the entry and its object (pure):
/// ``decide(_:sent:)`` names the answer, and the flush (`SyncEngine+PushAnswers`) does what
/// this table says for each.
///
/// | answer | entry | object | the run |
/// |---|---|---|---|
/// | applied | removed | the answer becomes the persistent copy (re-keyed to a server id) | goes on |
/// | created, then deleted | removed | as applied, then the deletion is met as a pulled tombstone | goes on |
/// | conflict holding what we sent | removed | as applied: it was our own write, retried | goes on |
/// | conflict | pending again | the server's copy is stored; the collection's policy settles | goes on |
/// | rejected (4xx) | failed, with status and body | failed; the app is told | goes on |
/// | retry (5xx, 429, …) | pending, not before the server's wait or the backoff | unchanged | stops |
enum PushOutcomeRule: Equatable, Sendable {
    case applied(record: JSONValue?, version: String?)
    case appliedThenDeleted(record: JSONValue?, version: String?)
    case conflict(server: JSONValue?, version: String?)
    case rejected(status: Int, body: String?)
    case retry(status: Int?, message: String, retryAfter: Duration?)

    /// The meaning of `outcome` for an entry that sent `payload`.
    static func decide(_ outcome: PushOutcome, sent payload: JSONValue?) -> PushOutcomeRule {
        switch outcome {
        case .applied(let record, let version): .applied(record: record, version: version)
        case .createdThenDeleted(let record, let version): .appliedThenDeleted(record: record, version: version)
        // A retried write the server already applied comes back as a conflict whose server
        // copy is what we sent: it was our own write.
        case .conflict(let server, let version) where server == payload: .applied(record: server, version: version)
        case .conflict(let server, let version): .conflict(server: server, version: version)
        case .rejected(let status, let body): .rejected(status: status, body: body)
        case .retry(let status, let message, let retryAfter): .retry(status: status, message: message, retryAfter: retryAfter)
        }
    }

    /// Whether the entry counts as pushed.
    var isPushed: Bool {
        switch self {
        case .applied, .appliedThenDeleted: true
        default: false
        }
    }
}

/// Exponential backoff with a cap, for entries the server asked to retry.
enum RetryBackoff {
    /// 1 s, 2 s, 4 s … capped at 5 minutes.
    static func delay(afterAttempt attempt: Int) -> Duration {
        let seconds = min(300.0, pow(2.0, Double(max(0, attempt - 1))))
        return .milliseconds(Int64(seconds * 1000))
    }
}
