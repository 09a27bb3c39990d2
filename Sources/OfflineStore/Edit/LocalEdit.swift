import Foundation

/// An edit the app makes to one object.
enum LocalEdit: Sendable {
    case create(JSONValue)
    case replace(id: String, with: JSONValue)
    /// Creates or replaces; with `keeping`, the members of the current object whose names
    /// are not in it stay (a typed model saves only the fields it knows).
    case save(JSONValue, keeping: Set<String>? = nil)
    case patch(id: String, fields: [String: JSONValue])
    case destroy(id: String)

    var kindName: String {
        switch self {
        case .create: "create"
        case .replace, .save, .patch: "update"
        case .destroy: "delete"
        }
    }
}

extension LocalEdit {
    /// The edit with an explicit id (a new UUID for creates without one).
    func withGeneratedID() throws -> LocalEdit {
        switch self {
        case .create(let v): return .create(try Self.withID(v))
        case .save(let v, let known): return .save(try Self.withID(v), keeping: known)
        default: return self
        }
    }

    /// `value` with its `id`: as given when it has a string one (found with one lookup),
    /// else set to what ``ObjectValidation/newID(for:)`` answers (or its error).
    private static func withID(_ value: JSONValue) throws -> JSONValue {
        if case .object(let members) = value, case .string? = members["id"] { return value }
        return value.settingID(try ObjectValidation.newID(for: value))
    }

    var objectID: String {
        switch self {
        case .create(let v), .save(let v, _): v["id"]?.stringValue ?? ""
        case .replace(let id, _), .patch(let id, _), .destroy(let id): id
        }
    }
}

extension JSONValue {
    func settingID(_ id: String) -> JSONValue {
        // Setting an equal id would copy the members (they are shared with `self`).
        guard case .object(var o) = self, o["id"] != .string(id) else { return self }
        o["id"] = .string(id)
        return .object(o)
    }
}
