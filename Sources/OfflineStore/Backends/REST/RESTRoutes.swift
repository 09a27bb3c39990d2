import Foundation

/// Route templates of one resource filled in: `{name}` takes the remote field `name` of
/// the object (`{id}` its id), percent-encoded as one path segment (pure, no I/O).
struct RESTRoutes: Sendable {
    let resource: RESTResource

    /// The collection route of an operation: nested when the resource says so for it.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidOperation`` when a template field is missing.
    func collectionPath(for operation: RESTResource.Operation, fields: [String: JSONValue]) throws -> String {
        if let nested = resource.nested, nested.operations.contains(operation) {
            return try Self.fill(nested.path, fields) + suffix
        }
        return try Self.fill(resource.path, fields) + suffix
    }

    /// The member route of an operation on `id`: nested (`<nested path>/{id}`) when the
    /// resource says so for it.
    func memberPath(for operation: RESTResource.Operation, id: String, fields: [String: JSONValue]) throws -> String {
        var values = fields
        values["id"] = .string(id)
        if let nested = resource.nested, nested.operations.contains(operation) {
            return try Self.fill(nested.path + "/{id}", values) + suffix
        }
        return try Self.fill(resource.memberPath, values) + suffix
    }

    /// The flat member route of `id` (deletes, reads).
    func flatMemberPath(id: String) throws -> String {
        try Self.fill(resource.memberPath, ["id": .string(id)]) + suffix
    }

    /// The flat collection route for pulls.
    var listPath: String { resource.path + suffix }

    private var suffix: String { resource.formatSuffix ?? "" }

    /// Fills `{name}` placeholders from `values`.
    static func fill(_ template: String, _ values: [String: JSONValue]) throws -> String {
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw OfflineStoreError(.configuration, "route template \"\(template)\" has an unclosed '{'")
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard let value = values[name], let text = segment(value) else {
                throw OfflineStoreError(.invalidOperation,
                                        "route \"\(template)\" needs the field '\(name)', which the object does not have")
            }
            out += text
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    private static func segment(_ value: JSONValue) -> String? {
        let text: String
        switch value {
        case .string(let s) where !s.isEmpty: text = s
        case .int(let i): text = String(i)
        default: return nil
        }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#")
        return text.addingPercentEncoding(withAllowedCharacters: allowed)
    }
}
