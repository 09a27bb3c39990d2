import OfflineStore

/// The per-field view of a conflict and the merged object built from a person's choices.
///
/// Fields are the top-level keys of the three copies; a nested object is one value. The
/// object's `id` is never a choice: the merge keeps the conflict's id.
public enum FieldMerge {
    /// How one field differs between the copies.
    public enum Change: String, Sendable, Hashable {
        /// Local and server hold the same value.
        case same
        /// Only the local edit changed it (the server still has the base value).
        case local
        /// Only the server changed it.
        case server
        /// Both changed it, to different values: a person must choose.
        case both
    }

    /// One field across base, local and server (nil: the copy lacks the field).
    public struct Field: Sendable, Hashable {
        /// The field's name.
        public var name: String
        /// The value the local edit started from.
        public var base: JSONValue?
        /// The local value.
        public var local: JSONValue?
        /// The server's value.
        public var server: JSONValue?
        /// How the value differs.
        public var change: Change
    }

    /// A person's choice for one field.
    public enum Choice: Sendable, Hashable {
        /// The local value (a field the local copy lacks is left out).
        case local
        /// The server's value (a field the server copy lacks is left out).
        case server
        /// A value typed on the page, as JSON text.
        case edited(String)
    }

    /// The fields of a conflict, sorted by name, `id` left out.
    public static func fields(of conflict: Conflict) -> [Field] {
        let copies = [conflict.base, conflict.local, conflict.server].map { $0?.objectValue ?? [:] }
        let names = Set(copies.flatMap(\.keys)).subtracting(["id"]).sorted()
        return names.map { name in
            let (base, local, server) = (copies[0][name], copies[1][name], copies[2][name])
            let change: Change = if local == server { .same } else if server == base { .local }
                else if local == base { .server } else { .both }
            return Field(name: name, base: base, local: local, server: server, change: change)
        }
    }

    /// The merged object: for each field the chosen value, for a field both copies agree on
    /// their value. Every field whose local and server values differ needs a choice.
    ///
    /// - Throws: ``InspectorError`` (400) when a copy is a delete, a differing field has no
    ///   choice, a choice names a field no copy has, or an edited value is not JSON.
    public static func merge(_ conflict: Conflict, choices: [String: Choice]) throws -> JSONValue {
        guard conflict.local != nil, conflict.server != nil else {
            let side = conflict.local == nil ? "the local edit is a delete" : "the server deleted the object"
            throw InspectorError(400, "\(side): choose keep local or keep server; there are no fields to merge")
        }
        let fields = fields(of: conflict)
        let known = Set(fields.map(\.name))
        if let unknown = choices.keys.sorted().first(where: { !known.contains($0) }) {
            throw InspectorError(400, "field '\(unknown)' is in none of the copies of \(conflict.collection)/\(conflict.id)")
        }
        var merged: [String: JSONValue] = ["id": .string(conflict.id)]
        for field in fields {
            let value: JSONValue?
            switch choices[field.name] {
            case .local?: value = field.local
            case .server?: value = field.server
            case .edited(let text)?:
                do { value = try JSONValue(parsing: text) } catch {
                    throw InspectorError(400, "field '\(field.name)': the edited value is not valid JSON (\(error)); "
                        + "write text in double quotes, e.g. \"Buy milk\"")
                }
            case nil:
                guard field.change == .same else {
                    throw InspectorError(400, "field '\(field.name)' differs: choose local, server or an edited value")
                }
                value = field.local
            }
            if let value { merged[field.name] = value }
        }
        return .object(merged)
    }
}
