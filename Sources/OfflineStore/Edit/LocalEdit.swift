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
        case .create(let v):
            let id = try ObjectValidation.newID(for: v)
            return .create(v.settingID(id))
        case .save(let v, let known):
            let id = try ObjectValidation.newID(for: v)
            return .save(v.settingID(id), keeping: known)
        default: return self
        }
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
