/// One field of a conflicted object as each side has it, for a conflict screen.
///
/// `nil` means the side does not have the field (or the object: deleted, never on the server).
public struct ModelFieldChange: Sendable, Hashable {
    /// The stored field name (the property's coding key).
    public let field: String
    /// The value the local edit started from.
    public let base: JSONValue?
    /// The local edit's value.
    public let local: JSONValue?
    /// The server's current value.
    public let server: JSONValue?

    /// A field as the three copies have it.
    public init(field: String, base: JSONValue?, local: JSONValue?, server: JSONValue?) {
        self.field = field
        self.base = base
        self.local = local
        self.server = server
    }

    /// Whether the local edit changed the field.
    public var changedLocally: Bool { local != base }
    /// Whether the server's version changed the field.
    public var changedOnServer: Bool { server != base }
    /// Whether both sides changed the field to different values: a person has to choose.
    public var isConflicting: Bool { changedLocally && changedOnServer && local != server }

    /// The fields that differ between any two copies, by name (`id` excluded).
    static func changes(base: JSONValue?, local: JSONValue?, server: JSONValue?) -> [ModelFieldChange] {
        let b = base?.objectValue ?? [:], l = local?.objectValue ?? [:], s = server?.objectValue ?? [:]
        let names = Set(b.keys).union(l.keys).union(s.keys).subtracting(["id"])
        return names.sorted().compactMap { name in
            let change = ModelFieldChange(field: name, base: b[name], local: l[name], server: s[name])
            return change.changedLocally || change.changedOnServer ? change : nil
        }
    }
}
