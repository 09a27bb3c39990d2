/// The life of a queue entry: its states and the transitions allowed between them (pure).
///
/// ```text
///            send               confirm (2xx, own write recognised)
///  pending ───────▶ in-flight ──────────────────────────────────────▶ (removed)
///     ▲  ◀──────────────┤ release (5xx, lost connection, cancelled), requeue (409/412), recover (crash),
///     │                 │ withdraw (marked, never sent)
///     │                 │ reject (other 4xx)
///     └──── retry ── failed ─── rollback / discard ──▶ (removed)
///  pending ── forbid (read access lost, purge policy) ──▶ failed
/// ```
/// ``QueueTable`` applies a transition only to an entry in one of its source states.
enum QueueTransition: String, CaseIterable, Sendable {
    /// Marked in flight and sent.
    case send
    /// Marked in flight and never sent: pending again exactly as before it was marked. The
    /// flush marks the next batch while one is on the wire, and withdraws it when that one's
    /// answers must be written before anything more goes out (``FlushOverlapRule``).
    case withdraw
    /// Returned to the queue unanswered: a transport failure, a retry answer, a cancelled run.
    case release
    /// The server holds another version: back to pending while the conflict is settled.
    case requeue
    /// Left in flight by a crash: pending again at the next flush.
    case recover
    /// The server rejected it.
    case reject
    /// The server applied it, or a refresh recognised it as applied.
    case confirm
    /// The app (or its failed-entry handler) sends a rejected entry again.
    case retry
    /// A settled conflict resends the local copy in the entry's place.
    case resend
    /// The app cancels, rolls back or discards the object's edits.
    case drop
    /// Read access to the collection was withdrawn and its policy purges: a pending edit is
    /// kept as a forbidden failed entry (``ReadAccessLossPolicy/purge``).
    case forbid

    /// The states the transition starts from.
    var sources: Set<QueueEntry.State> {
        switch self {
        case .send, .forbid: [.pending]
        case .release, .requeue, .recover, .reject, .withdraw: [.inFlight]
        case .confirm: [.inFlight, .pending]
        case .retry: [.failed]
        case .resend: [.pending, .inFlight, .failed]
        case .drop: [.pending, .failed]
        }
    }

    /// The state after the transition; nil when the entry leaves the queue.
    var target: QueueEntry.State? {
        switch self {
        case .send: .inFlight
        case .release, .requeue, .recover, .retry, .resend, .withdraw: .pending
        case .reject, .forbid: .failed
        case .confirm, .drop: nil
        }
    }
}
