import Foundation

/// Checks of ids and objects that every edit passes before anything is written.
enum ObjectValidation {
    /// Checks an id before an edit writes anything.
    ///
    /// The store's own rules are only those that protect it: an id is not empty and holds
    /// no control characters (they would corrupt the CLI's line output and logs). Ids are
    /// always bound as SQL parameters, percent-encoded as one URL path segment, and never
    /// used as file names, so no length limit is needed here: the length and alphabet are
    /// the backend's rules (``Backend/validate(id:in:)``), so that every id the store pulled
    /// from the server can be edited and deleted. Local-only collections pass no backend.
    static func validateID(_ id: String, collection: String, backend: (any Backend)?) throws {
        guard !id.isEmpty else { throw OfflineStoreError(.invalidID, "an object id must not be empty") }
        // Control characters are ASCII, and UTF-8 bytes below 0x80 are ASCII characters only:
        // scanning the bytes in place finds the same ids as the scalars, at a fraction of the cost.
        let isControl = { (byte: UInt8) in byte < 0x20 || byte == 0x7F }
        guard !(id.utf8.withContiguousStorageIfAvailable { $0.contains(where: isControl) }
                ?? id.utf8.contains(where: isControl)) else {
            throw OfflineStoreError(.invalidID, "an object id must not contain control characters")
        }
        try backend?.validate(id: id, in: collection)
    }

    /// The object's members, with its `id` checked against (or set to) `id`; a `null`
    /// `id` counts as absent, as in ``newID(for:)``.
    static func members(of value: JSONValue, id: String) throws -> [String: JSONValue] {
        guard case .object(var members) = value else {
            throw OfflineStoreError(.invalidJSON, "an object must be a JSON object, got \(value.typeName)")
        }
        let given = members["id"]  // looked up once: every edit and pulled record comes here
        if let given, given != .null, given != .string(id) {
            throw OfflineStoreError(.invalidID, "the object's \"id\" field (\(given)) does not match its id '\(id)'")
        }
        try checkFinite(value)
        // Setting an equal id would copy the whole dictionary (it is shared with `value`).
        if given != .string(id) { members["id"] = .string(id) }
        return members
    }

    /// The id of a new object: its `"id"` field, or a new lowercase UUID.
    static func newID(for value: JSONValue) throws -> String {
        guard case .object(let members) = value else {
            throw OfflineStoreError(.invalidJSON, "an object must be a JSON object, got \(value.typeName)")
        }
        switch members["id"] {
        case nil, .null?: return UUID.random().lowercaseString
        case .string(let s)?: return s
        case let other?: throw OfflineStoreError(.invalidID, "an object's \"id\" must be a string, got \(other.typeName)")
        }
    }

    private static func checkFinite(_ value: JSONValue) throws {
        switch value {
        case .double(let d) where !d.isFinite:
            throw OfflineStoreError(.invalidJSON, "JSON cannot hold the number \(d)")
        // Plain loops: `forEach(checkFinite)` made a closure per array and object.
        case .array(let a): for item in a { try checkFinite(item) }
        case .object(let o): for member in o.values { try checkFinite(member) }
        default: break
        }
    }
}
