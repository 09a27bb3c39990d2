/// Optional authentication support of a ``Backend``.
extension Backend {
    /// The session whose credentials this backend signs requests with; nil (the default)
    /// when the backend's credentials are fixed, so ``ObjectStore/login(_:)`` cannot change them.
    public var authSession: AuthSession? { nil }
}

extension KintoBackend {
    /// The session of ``KintoAuth/session(_:)`` credentials, else nil.
    public var authSession: AuthSession? {
        if case .session(let session) = configuration.auth { return session }
        return nil
    }

    /// After a 401: whether the credentials were refreshed, so the request can be sent once more.
    ///
    /// - Throws: ``OfflineStoreError/Code/unauthorized`` when the provider fails.
    func refreshCredentials() async throws -> Bool {
        guard let session = authSession else { return false }
        do {
            return try await session.refreshAfterUnauthorized()
        } catch let error as CancellationError {
            throw error
        } catch {
            throw OfflineStoreError(.unauthorized, "refreshing the credentials failed", underlying: String(describing: type(of: error)))
        }
    }
}
