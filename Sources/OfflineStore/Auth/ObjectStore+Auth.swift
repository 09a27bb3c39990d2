

/// Signing in and out (Docs/Auth.md): the backend must use an ``AuthSession``
/// (`KintoAuth.session(_:)`), whose credentials these methods change.
///
/// ```swift
/// try await store.login(.basic(user: "alice", password: "s3cret"))   // asks the server
/// try await store.sync()
/// store.logout()                                                     // data and queue stay
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
        let session = try requireSession()
        let previous = session.set(credentials)
        do {
            try await backend?.ping()
        } catch {
            session.set(previous)
            throw OfflineStoreError.sync(error)
        }
        configuration.logger.info("signed in", metadata: ["user": "\(credentials.user ?? "-")"])
    }

    /// Signs out: requests go without credentials until the next ``login(_:)``. Local data
    /// and the queue stay (use ``fullResetAndLogout()`` to remove them, or per-user stores
    /// — ``UserPartitions`` — to keep users apart).
    public func logout() {
        backend?.authSession?.set(nil)
    }

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

    private func requireSession() throws -> AuthSession {
        guard let session = backend?.authSession else {
            throw OfflineStoreError(.configuration,
                "login needs a backend whose credentials can change: create it with an AuthSession (KintoAuth.session)")
        }
        return session
    }
}

/// Whether the server answers, and whether it accepts the credentials.
enum Reachability: Sendable, Equatable {
    case reachable
    case offline
    /// The server answered but refused the credentials (401/403): it is reachable, the edit is not allowed.
    case unauthorized(OfflineStoreError)
}

extension ObjectStore {
    /// Pings the backend (offline without a backend or when forced offline).
    func reachability() async -> Reachability {
        guard let backend, !isForcedOffline else { return .offline }
        do {
            try await backend.ping()
            return .reachable
        } catch let error as OfflineStoreError where error.code == .unauthorized {
            return .unauthorized(error)
        } catch {
            return .offline
        }
    }

    /// The error an online-only edit fails with, or nil when the server can take it.
    static func onlineOnlyError(_ reachability: Reachability, collection: String) -> OfflineStoreError? {
        switch reachability {
        case .reachable: nil
        case .offline:
            OfflineStoreError(.offline, "\(collection) updates only online and the server cannot be reached; nothing changed")
        case .unauthorized(let error):
            OfflineStoreError(.unauthorized, "\(collection) updates only online and the server refused the credentials; nothing changed",
                              status: error.status)
        }
    }
}
