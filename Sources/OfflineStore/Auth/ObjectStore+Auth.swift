

/// Signing in and out (Docs/Auth.md): the backend must use an ``AuthSession``
/// (`KintoAuth.session(_:)`), whose credentials these methods change.
///
/// ```swift
/// try await store.login(.basic(user: "alice", password: "s3cret"))   // asks the server
/// try await store.sync()
/// store.logout()                                                     // data and queue stay
/// try await store.logout(pendingEdits: .refuse)                      // throws while edits wait
/// try await store.fullResetAndLogout()                               // everything goes
/// ```
///
/// Credentials live only in memory: they are never written to the store file, and
/// descriptions of credentials, sessions, configurations and errors redact them.
extension ObjectStore {
    /// Signs in: the server is asked whether it accepts `credentials`; only then does the
    /// session use them. On failure the previous credentials stay.
    ///
    /// - Throws: ``OfflineStoreError`` `unauthorized` (the server refused them), `offline`,
    ///   `timeout`, `server`, or `configuration` when the backend has no ``AuthSession``.
    public func login(_ credentials: Credentials) async throws {
        try await AuthSession.signIn(credentials, on: backend)
        configuration.logger.info("signed in", metadata: ["user": "\(credentials.user ?? "-")"])
    }

    /// Signs out (requests go anonymous); data and queue stay: see ``logout(pendingEdits:)``, ``UserPartitions``.
    public func logout() { backend?.authSession?.set(nil) }

    /// Signs out, deciding what happens to edits not sent yet (``PendingEditsAtLogout``).
    /// - Throws: ``OfflineStoreError/Code/pendingEdits`` (`.refuse`; nothing changes), or a storage error.
    public func logout(pendingEdits: PendingEditsAtLogout) async throws { try await syncEngine.settleBeforeLogout(pendingEdits); logout() }

    /// Whether the backend's session holds credentials (false without a session).
    public var isLoggedIn: Bool { backend?.authSession?.isLoggedIn ?? false }

    /// Full reset and logout: every object, the whole queue (unsent edits are lost), the
    /// pull cursors and the credentials go. Registered collections and app metadata stay.
    ///
    /// - Throws: a storage error; nothing changes then (the credentials are kept too).
    public func fullResetAndLogout() async throws {
        try await resetAll()
        logout()
    }
}
