/// Who the app signs in as, and how requests prove it (Docs/Auth.md).
///
/// Descriptions and mirrors redact secrets: printing a value never shows a password or token.
public enum Credentials: Sendable {
    /// HTTP Basic: `Authorization: Basic base64(user:password)`.
    case basic(user: String, password: String)
    /// `Authorization: Bearer <token>`; `user` names the partition (nil: the token itself
    /// is not shown anywhere, a digest-free placeholder "bearer" is used).
    case bearer(token: String, user: String?)
    /// A header computed before every request that can be refreshed after a 401.
    case provider(user: String?, any AuthHeaderProvider)

    /// The user these credentials sign in as, when known (used for per-user partitions).
    public var user: String? {
        switch self {
        case .basic(let user, _): user
        case .bearer(_, let user): user
        case .provider(let user, _): user
        }
    }

    /// The header to send with a request.
    ///
    /// - Throws: what the provider throws.
    func headerField() async throws -> (name: String, value: String) {
        switch self {
        case .basic(let user, let password):
            try await KintoAuth.basic(user: user, password: password).headerField() ?? ("Authorization", "")
        case .bearer(let token, _):
            ("Authorization", "Bearer " + token)
        case .provider(_, let provider):
            try await provider.header()
        }
    }
}

/// Supplies an authentication header per request and refreshes it when the server says
/// 401 (e.g. an OAuth access token renewed with a refresh token).
///
/// ```swift
/// struct Tokens: AuthHeaderProvider {
///     let vault: TokenVault
///     func header() async throws -> (name: String, value: String) { ("Authorization", "Bearer \(await vault.access)") }
///     func refresh() async throws -> Bool { try await vault.renew() }
/// }
/// ```
public protocol AuthHeaderProvider: Sendable {
    /// The header for the next request; called before every request.
    ///
    /// - Throws: any error; the request fails with ``OfflineStoreError/Code/unauthorized``.
    func header() async throws -> (name: String, value: String)
    /// Called once when a request was answered 401; return true when a new header is
    /// available (the request is sent once more), false to give up.
    ///
    /// - Throws: any error; the request fails with ``OfflineStoreError/Code/unauthorized``.
    func refresh() async throws -> Bool
}

extension Credentials: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The kind of credentials with secrets redacted.
    public var description: String {
        switch self {
        case .basic(let user, _): "basic(user: \(user), password: <redacted>)"
        case .bearer(_, let user): "bearer(user: \(user ?? "-"), token: <redacted>)"
        case .provider(let user, _): "provider(user: \(user ?? "-"))"
        }
    }

    /// Same as ``description``: secrets redacted.
    public var debugDescription: String { description }

    /// A mirror that shows only the redacted ``description``.
    public var customMirror: Mirror { Mirror(self, children: ["credentials": description], displayStyle: .enum) }
}
