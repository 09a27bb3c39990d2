
/// The credentials a backend currently signs its requests with; changed by
/// ``ObjectStore/login(_:)`` and ``ObjectStore/logout()``. Held in memory only: never
/// written to the store file, logs or errors.
///
/// ```swift
/// let session = AuthSession()
/// let kinto = KintoBackend(configuration: .init(serverURL: url, auth: .session(session)))
/// let store = try ObjectStore(path: "app.sqlite", backend: kinto)
/// try await store.login(.basic(user: "alice", password: "s3cret"))
/// ```
public final class AuthSession: Sendable, CustomStringConvertible {
    private let current: Locked<Credentials?>

    /// A session, signed in with `credentials` when given (not validated: see ``ObjectStore/login(_:)``).
    public init(_ credentials: Credentials? = nil) {
        current = Locked(credentials)
    }

    /// Whether requests carry credentials.
    public var isLoggedIn: Bool { current.withLock { $0 != nil } }

    /// The signed-in user, when the credentials name one.
    public var user: String? { current.withLock { $0?.user } }

    /// The credentials in use.
    var credentials: Credentials? { current.withLock { $0 } }

    /// Replaces the credentials (nil: signed out); returns the previous ones.
    @discardableResult
    func set(_ credentials: Credentials?) -> Credentials? {
        current.withLock { old in
            defer { old = credentials }
            return old
        }
    }

    /// The header for the next request; nil when signed out.
    ///
    /// - Throws: what a provider throws.
    func headerField() async throws -> (name: String, value: String)? {
        guard let credentials else { return nil }
        return try await credentials.headerField()
    }

    /// After a 401: asks a refreshing provider for new credentials. False for fixed
    /// credentials (a basic password or bearer token cannot renew itself).
    ///
    /// - Throws: what the provider throws.
    func refreshAfterUnauthorized() async throws -> Bool {
        guard case .provider(_, let provider)? = credentials else { return false }
        return try await provider.refresh()
    }

    /// The session with secrets redacted.
    public var description: String { "AuthSession(\(credentials.map(\.description) ?? "signed out"))" }
}

extension AuthSession {
    /// Signs the session of `backend` in with `credentials` once the server accepted them
    /// (``Backend/ping()``); on failure the previous credentials stay (``ObjectStore/login(_:)``).
    ///
    /// - Throws: ``OfflineStoreError`` from the ping, or `configuration` when the backend
    ///   (or its absence) has no session.
    static func signIn(_ credentials: Credentials, on backend: (any Backend)?) async throws {
        guard let backend, let session = backend.authSession else {
            throw OfflineStoreError(.configuration,
                "login needs a backend whose credentials can change: create it with an AuthSession (KintoAuth.session)")
        }
        let previous = session.set(credentials)
        do {
            try await backend.ping()
        } catch {
            session.set(previous)
            throw OfflineStoreError.sync(error)
        }
    }
}
