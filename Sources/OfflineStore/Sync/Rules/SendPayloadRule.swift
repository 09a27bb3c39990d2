/// What a queue entry carries when the flush marks it in flight (pure).
///
/// An entry sent before is resent exactly as it was, so the server's precondition answer can
/// prove it was our own write; a new entry, or one the app retried (``ObjectStore/retry(_:id:)``
/// forgets the refused payload), carries the object's current local copy. When the app deleted
/// the object after the entry failed, there is no current copy: for an update, the delete
/// queued behind it is the edit that goes, and the update leaves the queue unsent; for a create
/// of an object the server never had, nothing goes at all, as when a pending create meets a
/// delete (``Coalescing``): the create, the delete and the object leave. (Sending that delete
/// would name the object by an id the server never gave: a temporary id on a REST server that
/// assigns ids, which a server may even read as another record's.)
enum SendPayloadRule {
    /// The decision for one entry.
    enum Decision: Equatable {
        /// Send this copy (nil for a delete).
        case send(JSONValue?)
        /// Send nothing and drop the entry: the object was deleted locally since, and that
        /// delete is queued behind it.
        case supersededByDelete
        /// Send nothing, and drop the object with every entry: a create the server never had,
        /// of an object deleted locally since.
        case cancelledByDelete
    }

    /// Decides what `kind` sends. `sentData` is the payload of an earlier send (nil when never
    /// sent or retried); `local` the object's local copy, nil when it was deleted locally or has
    /// no local edit; `onServer` whether the store holds a server copy or version of the object;
    /// `deleteQueuedBehind` whether a delete of the object waits later in the
    /// queue, evaluated only for a create or update that has no copy to send.
    ///
    /// - Throws: `corrupted` when a create or update has no copy to send and no delete follows:
    ///   a queue no edit history can produce; the error of `deleteQueuedBehind`.
    static func decide(seq: Int64, kind: QueueEntry.Kind, attempts: Int, sentData: JSONValue?, local: JSONValue?,
                       onServer: Bool, deleteQueuedBehind: @autoclosure () throws -> Bool) throws -> Decision {
        if kind == .delete { return .send(nil) }
        if attempts > 0, let sentData { return .send(sentData) }
        if let local { return .send(local) }
        if try deleteQueuedBehind() { return kind == .create && !onServer ? .cancelledByDelete : .supersededByDelete }
        throw OfflineStoreError(.corrupted, "queue entry \(seq) has no local copy to send")
    }
}
