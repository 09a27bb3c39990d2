/// What the answer to one pushed write means, before anything is read back (pure,
/// table-tested in `ODataPushAnswerRuleTests`). The two kinds of service the store meets
/// answer a repeated write differently (Docs/ODataFacts.md): a create of an existing key is
/// 409 on one and 500 on the other, a delete of a gone entity with its old ETag 404 on one
/// and 412 on the other. Where a status cannot tell a repeat from a failure or a conflict,
/// the rule asks to read the entity: what the server holds decides.
///
/// | write | status | decision |
/// |---|---|---|
/// | any | 2xx | applied |
/// | any | 401 | unauthorized (the whole push fails) |
/// | any | 403 | rejected 403: a `forbidden` failed entry |
/// | any | 428 | configuration: the service requires `If-Match` |
/// | create | 409; 500 of a client key | read: holds what was sent → applied; another copy → conflict; gone → retry |
/// | update | 404 | conflict, the server copy deleted |
/// | update | 409, 412 | read: a resend the copy holds → applied; else conflict with the copy (gone → deleted) |
/// | delete | 404 | applied (gone is what a delete asks) |
/// | delete | 409, 412 | read: gone → applied; present → conflict with the copy |
/// | any | other 4xx, 5xx | as `RESTFailureRule`: retry (408/425/429, 5xx; a third 500 rejects), else rejected |
enum ODataPushAnswerRule: Equatable, Sendable {
    /// The write took effect; the answer holds the server's copy (or none: a delete).
    case applied
    /// A delete whose entity is gone: applied, nothing to read.
    case gone
    /// An update of an entity the server deleted: a conflict with no server copy.
    case deletedOnServer
    /// Read the entity and decide by what the server holds (``ReadBack``).
    case readBack(ReadBack)
    /// The server refused this write (the entry becomes failed).
    case rejected
    /// The write may succeed later; the entry stays pending.
    case retry
    /// The credentials were refused: the whole push fails `unauthorized`.
    case unauthorized
    /// The service requires `If-Match` and the write had no version: a `configuration` error.
    case preconditionRequired

    /// How to read what a read-back found.
    enum ReadBack: Equatable, Sendable {
        /// A create that may have been applied before (a repeat): the copy holding every
        /// sent field is its result; another copy is a conflict; no entity means the
        /// failure was real (retry).
        case create
        /// An update that met another version: the copy holding every sent field is a
        /// repeat of ours (applied), otherwise a conflict; no entity is a conflict with the
        /// server's deletion.
        case update
        /// A delete that met another version or a repeat: no entity means applied,
        /// an entity is a conflict.
        case delete
    }

    /// The decision for `status` answered to a write of `kind`; `serverKey` when the server
    /// assigns the set's keys (a create cannot be repeated onto its own key there), `attempt`
    /// the entry's send (1 for the first).
    static func decide(kind: QueueEntry.Kind, status: Int, serverKey: Bool, attempt: Int) -> ODataPushAnswerRule {
        switch (kind, status) {
        case (_, 200..<300): return kind == .delete ? .gone : .applied
        case (_, 401): return .unauthorized
        case (_, 403): return .rejected
        case (_, 428): return .preconditionRequired
        case (.create, 409): return .readBack(.create)
        case (.create, 500) where !serverKey: return .readBack(.create)
        case (.update, 404): return .deletedOnServer
        case (.update, 409), (.update, 412): return .readBack(.update)
        case (.delete, 404), (.delete, 410): return .gone
        case (.delete, 409), (.delete, 412): return .readBack(.delete)
        default:
            switch RESTFailureRule.decide(status: status, attempt: attempt) {
            case .retry: return .retry
            case .reject: return .rejected
            }
        }
    }
}
