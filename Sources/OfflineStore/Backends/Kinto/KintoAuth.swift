import Foundation

/// How ``KintoBackend`` authenticates its requests.
///
/// Descriptions and mirrors redact secrets: printing or dumping a value never shows a
/// password or token.
///
/// ```swift
/// let auth = KintoAuth.basic(user: "alice", password: "s3cret")
/// let refreshing = KintoAuth.header { ("Authorization", "Bearer \(try await tokens.current())") }
/// ```
public enum KintoAuth: Sendable {
    /// No `Authorization` header (anonymous).
    case none
    /// HTTP Basic: `Authorization: Basic base64(user:password)`. On Kinto's basicauth
    /// policy the password is part of the identity.
    case basic(user: String, password: String)
    /// `Authorization: Bearer <token>`.
    case bearer(String)
    /// A header computed before every request, e.g. from a token that can be refreshed.
    case header(@Sendable () async throws -> (name: String, value: String))
    /// The credentials of an ``AuthSession``, changed by login and logout; a refreshing
    /// provider is asked once for new credentials after a 401.
    case session(AuthSession)

    /// The header to add to a request, or nil for ``none``.
    ///
    /// - Throws: whatever the ``header(_:)`` provider throws.
    func headerField() async throws -> (name: String, value: String)? {
        switch self {
        case .none:
            return nil
        case .basic(let user, let password):
            return ("Authorization", "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
        case .bearer(let token):
            return ("Authorization", "Bearer " + token)
        case .header(let provider):
            return try await provider()
        case .session(let session):
            return try await session.headerField()
        }
    }

    /// Whether requests carry credentials.
    var isAuthenticated: Bool {
        switch self {
        case .none: return false
        case .session(let session): return session.isLoggedIn
        default: return true
        }
    }
}

extension KintoAuth: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The kind of authentication with its secret redacted, e.g. `basic(user: alice, password: <redacted>)`.
    public var description: String {
        switch self {
        case .none: "none"
        case .basic(let user, _): "basic(user: \(user), password: <redacted>)"
        case .bearer: "bearer(<redacted>)"
        case .header: "header(<provider>)"
        case .session(let session): "\(session)"
        }
    }

    /// Same as ``description``: secrets redacted.
    public var debugDescription: String { description }

    /// A mirror that shows only the redacted ``description``.
    public var customMirror: Mirror { Mirror(self, children: ["auth": description], displayStyle: .enum) }
}
