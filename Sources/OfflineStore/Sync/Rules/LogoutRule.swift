/// What a logout does, from the app's choice and the edits waiting to be sent (pure, no I/O;
/// ``PendingEditsAtLogout``).
enum LogoutRule: Equatable, Sendable {
    /// Sign out; whatever is queued stays.
    case signOut
    /// Drop every queued edit (objects back to their server copies), then sign out.
    case discardThenSignOut
    /// Throw ``OfflineStoreError/Code/pendingEdits``; nothing changes.
    case refuse(pending: Int)

    /// The decision for `choice` when `pending` queue entries (pending, in flight, failed,
    /// or waiting on a conflict) are in the store.
    static func decide(_ choice: PendingEditsAtLogout, pending: Int) -> LogoutRule {
        switch choice {
        case .keep: .signOut
        case .discard: pending == 0 ? .signOut : .discardThenSignOut
        case .refuse: pending == 0 ? .signOut : .refuse(pending: pending)
        }
    }
}
