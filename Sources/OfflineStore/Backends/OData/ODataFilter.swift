import Foundation

/// A sync scope (``ServerQuery``) as an OData `$filter` expression for one entity set (pure).
///
/// Terms are joined with `and`, as the scope's terms are; a term the set cannot be asked
/// for (a field `$metadata` does not declare, `has`, `contains` on a non-string) is left
/// out, which widens the filter: the engine applies the whole scope again to what arrives
/// (``PullPage/keeping(_:)``), so a dropped term costs bandwidth only.
enum ODataFilter {
    /// The expression for `scope`, nil when no term can be sent.
    static func expression(_ scope: ServerQuery?, mapping: ODataRecordMapping) -> String? {
        guard let scope else { return nil }
        let parts = scope.terms.compactMap { term(for: $0, mapping: mapping) }
        return parts.isEmpty ? nil : parts.joined(separator: " and ")
    }

    /// One term, or nil when the set cannot be asked for it.
    static func term(for term: ServerQuery.Term, mapping: ODataRecordMapping) -> String? {
        let property = term.field == "id" ? mapping.key.property : term.field
        guard !term.field.contains("."), property != mapping.key.property || term.field == "id",
              let type = mapping.set.property(property)?.type else { return nil }
        func literal(_ value: JSONValue) -> String? { Self.literal(value, type: type) }
        switch term.op {
        case .equal, .notEqual, .lessThan, .greaterThan, .atLeast, .atMost:
            guard let value = literal(term.value) else { return nil }
            let op = ["equal": "eq", "notEqual": "ne", "lessThan": "lt", "greaterThan": "gt", "atLeast": "ge", "atMost": "le"][term.op.rawValue]!
            return "\(property) \(op) \(value)"
        case .isIn, .notIn:
            guard let values = term.value.arrayValue, !values.isEmpty else { return nil }
            let literals = values.compactMap(literal)
            guard literals.count == values.count else { return nil }
            let (op, join) = term.op == .isIn ? ("eq", " or ") : ("ne", " and ")
            return "(" + literals.map { "\(property) \(op) \($0)" }.joined(separator: join) + ")"
        case .contains:
            guard type == "Edm.String", case .string = term.value, let value = literal(term.value) else { return nil }
            return "contains(\(property),\(value))"
        case .has:
            return nil
        }
    }

    /// A value as a literal of a property's type: strings quoted (`'` doubled), Guids,
    /// dates and times bare, integers from their text where the store holds ids as text.
    static func literal(_ value: JSONValue, type: String) -> String? {
        switch (value, type) {
        case (.null, _): return "null"
        case (.bool(let flag), "Edm.Boolean"): return flag ? "true" : "false"
        case (.int(let number), _) where type.hasPrefix("Edm.Int") || type == "Edm.Decimal" || type == "Edm.Double"
            || type == "Edm.Single" || type == "Edm.Byte" || type == "Edm.SByte":
            return String(number)
        case (.double, "Edm.Double"), (.double, "Edm.Decimal"), (.double, "Edm.Single"):
            return value.serialized()
        case (.string(let text), "Edm.Int32"), (.string(let text), "Edm.Int64"):
            return ODataKey.integer(text, type == "Edm.Int32" ? .int32 : .int64).map(String.init)
        case (.string(let text), "Edm.Guid"):
            return ODataKey.isGuid(text.lowercased()) ? text.lowercased() : nil
        case (.string(let text), "Edm.DateTimeOffset"), (.string(let text), "Edm.Date"), (.string(let text), "Edm.TimeOfDay"):
            return text.allSatisfy { $0.isLetter || $0.isNumber || ":-.+".contains($0) } ? text : nil
        case (.string(let text), "Edm.String"):
            return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        default:
            return nil
        }
    }

    /// Percent-encodes a query value (an expression, a property list) for a URL.
    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: queryValueCharacters) ?? text
    }

    private static let queryValueCharacters = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~'(),:")
}
