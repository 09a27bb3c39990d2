import Foundation

/// Checks of ids and objects that every edit passes before anything is written.
enum ObjectValidation {
    /// The longest id accepted, in UTF-8 bytes.
    static let maximumIDLength = 256

    static func validateID(_ id: String, backend: (any Backend)?) throws {
        guard !id.isEmpty else { throw OfflineStoreError(.invalidID, "an object id must not be empty") }
        guard id.utf8.count <= maximumIDLength else {
            throw OfflineStoreError(.invalidID, "an object id must be at most \(maximumIDLength) bytes, got \(id.utf8.count)")
        }
        guard !id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw OfflineStoreError(.invalidID, "an object id must not contain control characters")
        }
        try backend?.validate(id: id)
    }

    /// The object's members, with its `id` checked against (or set to) `id`; a `null`
    /// `id` counts as absent, as in ``newID(for:)``.
    static func members(of value: JSONValue, id: String) throws -> [String: JSONValue] {
        guard case .object(var members) = value else {
            throw OfflineStoreError(.invalidJSON, "an object must be a JSON object, got \(value.typeName)")
        }
        if let given = members["id"], given != .null, given != .string(id) {
            throw OfflineStoreError(.invalidID, "the object's \"id\" field (\(given)) does not match its id '\(id)'")
        }
        try checkFinite(value)
        // Setting an equal id would copy the whole dictionary (it is shared with `value`).
        if members["id"] != .string(id) { members["id"] = .string(id) }
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
        case .array(let a): try a.forEach(checkFinite)
        case .object(let o): try o.values.forEach(checkFinite)
        default: break
        }
    }
}
