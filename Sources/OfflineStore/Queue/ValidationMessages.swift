/// Per-field validation messages parsed from a server's rejection body.
///
/// Understood shapes (the first that matches wins):
///
/// | body | example |
/// |---|---|
/// | NSRails / Rails | `{"title": ["is too short"], "due": ["must be a date"]}` |
/// | wrapped | `{"errors": {"title": ["is too short"]}}` (a single string counts as one reason) |
/// | Kinto / Cornice | `{"details": [{"location": "body", "name": "data.title", "description": "…"}]}` |
///
/// Anything else (plain text, other JSON) gives no messages; the raw body stays on
/// ``QueueEntry/responseBody``.
public struct ValidationMessages: Sendable, Hashable {
    /// The reasons, by field name.
    public let fields: [String: [String]]

    /// Messages by field.
    public init(fields: [String: [String]] = [:]) { self.fields = fields }

    /// The reasons given for one field (empty when none).
    public subscript(field: String) -> [String] { fields[field] ?? [] }

    /// Whether the server named no field.
    public var isEmpty: Bool { fields.isEmpty }

    /// Parses a rejection body; a body that is not JSON, or names no field, gives no messages.
    public init(parsing body: String?) {
        guard let body, let json = try? JSONValue(parsing: body) else { self.init(); return }
        if let details = json["details"]?.arrayValue {
            self.init(fields: Self.cornice(details))
        } else if let errors = json["errors"]?.objectValue {
            self.init(fields: Self.byField(errors))
        } else if let object = json.objectValue {
            self.init(fields: Self.byField(object))
        } else {
            self.init()
        }
    }

    /// `{"field": ["reason", …]}` or `{"field": "reason"}`; other members are ignored.
    private static func byField(_ object: [String: JSONValue]) -> [String: [String]] {
        var fields: [String: [String]] = [:]
        for (name, value) in object {
            if let list = value.arrayValue {
                let reasons = list.compactMap(\.stringValue)
                if !reasons.isEmpty, reasons.count == list.count { fields[name] = reasons }
            }
        }
        // A single string per field is only read when no field had a list (avoids taking
        // Kinto's `{"message": "…"}` for a field).
        if fields.isEmpty, object["message"] == nil, object["error"] == nil {
            for (name, value) in object { if let reason = value.stringValue { fields[name] = [reason] } }
        }
        return fields
    }

    /// Kinto's `details`: `name` is `data.field` for record fields.
    private static func cornice(_ details: [JSONValue]) -> [String: [String]] {
        var fields: [String: [String]] = [:]
        for detail in details {
            guard let name = detail["name"]?.stringValue, let reason = detail["description"]?.stringValue else { continue }
            let field = name.hasPrefix("data.") ? String(name.dropFirst(5)) : name
            fields[field, default: []].append(reason)
        }
        return fields
    }
}
