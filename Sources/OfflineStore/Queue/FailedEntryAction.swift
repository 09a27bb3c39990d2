/// What the app (or its error handler) does with an edit the server rejected (RhoConnect's
/// `onCreateError` / `onUpdateError` / `onDeleteError`).
///
/// | failed entry | allowed |
/// |---|---|
/// | create | ``discard``, ``retry`` |
/// | update | ``retry``, ``rollback`` |
/// | delete | ``retry``, ``rollback`` |
public enum FailedEntryAction: String, Sendable, Hashable, Codable, CaseIterable {
    /// Send the object's current local copy again with the next flush.
    case retry
    /// Give up the edit: the local copy becomes the persistent (server) copy again.
    case rollback
    /// Give up a create: the object is removed locally.
    case discard

    /// The actions allowed for a failed entry of this kind.
    public static func allowed(for kind: QueueEntry.Kind) -> [FailedEntryAction] {
        switch kind {
        case .create: [.discard, .retry]
        case .update, .delete: [.retry, .rollback]
        }
    }
}

/// Decides what to do with an entry the server just rejected, during the flush.
///
/// Return nil to leave the entry failed for the app. A `.retry` decision sends the entry
/// again with the *next* flush (not the running one), so a handler cannot loop.
public typealias FailedEntryHandler = @Sendable (_ entry: QueueEntry, _ object: StoredObject?) -> FailedEntryAction?

extension QueueEntry {
    /// The per-field validation messages of the server's rejection body.
    public var validationMessages: ValidationMessages { ValidationMessages(parsing: responseBody) }

    /// The actions allowed on this entry once it failed.
    public var allowedActions: [FailedEntryAction] { FailedEntryAction.allowed(for: kind) }
}
