/// What a logout does with edits the server has not received yet (queued, failed or in
/// conflict): ``ObjectStore/logout(pendingEdits:)`` and
/// ``UserPartitions/logout(pendingEdits:removingAppData:)``. Docs/Auth.md, "Sharing and lost access".
///
/// ```swift
/// do {
///     try await partitions.logout(pendingEdits: .refuse)
/// } catch let error as OfflineStoreError where error.code == .pendingEdits {
///     // Ask: sync first, keep them for this user's next login, or discard them.
/// }
/// ```
public enum PendingEditsAtLogout: String, Sendable, Hashable, Codable, CaseIterable {
    /// Refuse to sign out while edits are pending: the call throws
    /// ``OfflineStoreError/Code/pendingEdits`` and nothing changes (the user stays signed in).
    case refuse
    /// Keep them: they stay in the store and are sent by its next sync. With
    /// ``UserPartitions`` the user's file keeps them for that user's next login; in a single
    /// store they would go with whoever signs in next.
    case keep
    /// Discard them: every queued edit is dropped and each edited object goes back to its
    /// server copy (an object the server never had disappears), in one transaction; then sign out.
    case discard
}
