/// How a conflict between a local edit and a newer server version is settled.
public enum ConflictPolicy: Sendable {
    /// The object becomes ``SyncState/conflicted``; the app resolves it.
    case preserveConflict
    /// The local edit is resent on top of the server's version.
    case clientWins
    /// The server's version replaces the local edit.
    case serverWins
    /// Three-way merge by field; overlapping changes fall back to ``preserveConflict``.
    case merge
    /// The closure decides, given the base, local and server copies.
    case custom(ConflictResolver)

    /// The stored name of the policy; a custom resolver is stored as "custom".
    public var name: String {
        switch self {
        case .preserveConflict: "preserve"
        case .clientWins: "client-wins"
        case .serverWins: "server-wins"
        case .merge: "merge"
        case .custom: "custom"
        }
    }

    /// The policy with this stored name; "custom" and unknown names give nil.
    public init?(name: String) {
        switch name {
        case "preserve": self = .preserveConflict
        case "client-wins": self = .clientWins
        case "server-wins": self = .serverWins
        case "merge": self = .merge
        default: return nil
        }
    }
}

/// Decides a conflict given the three copies (a nil copy means "absent/deleted").
public typealias ConflictResolver = @Sendable (_ conflict: Conflict) -> Resolution

/// How a conflict is to be settled.
public enum Resolution: Sendable, Hashable {
    /// Keep the local edit and resend it on the server's version.
    case keepLocal
    /// Drop the local edit; the server's copy stands.
    case keepServer
    /// Send this object (queued as an update on the server's version).
    case merged(JSONValue)
    /// Leave the object conflicted for the app to resolve later.
    case preserve
}

/// A local edit that met a different server version: all copies, for an app or a person to decide.
public struct Conflict: Sendable, Hashable {
    /// The collection of the object.
    public let collection: String
    /// The object id.
    public let id: String
    /// The server copy the local edit started from (nil if created locally).
    public let base: JSONValue?
    /// The local edit (nil when the local edit is a delete).
    public let local: JSONValue?
    /// The server's current copy (nil when the server deleted the object).
    public let server: JSONValue?
    /// The server's current version.
    public let serverVersion: String?
}
