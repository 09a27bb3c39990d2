import GRDB

/// Turns conditions and sort keys into SQL with bound arguments.
struct QueryBuilder {
    let collection: CollectionDescriptor
    var arguments: StatementArguments = []

    init(collection: CollectionDescriptor) { self.collection = collection }

    /// The maximum bytes of a field path.
    static let maximumPathLength = 512

    /// The SQLite JSON path of a dotted field path: `a.b` → `$."a"."b"`.
    static func jsonPath(_ field: String) throws -> String {
        guard !field.isEmpty, field.utf8.count <= maximumPathLength else {
            throw OfflineStoreError(.invalidFieldPath, "a field path must be 1–\(maximumPathLength) bytes")
        }
        let segments = field.split(separator: ".", omittingEmptySubsequences: false)
        var path = "$"
        for segment in segments {
            guard !segment.isEmpty else {
                throw OfflineStoreError(.invalidFieldPath, "field path '\(field)' has an empty segment")
            }
            // SQLite reads a quoted path label up to the next quote, and some versions (3.40
            // does) compare the label with the key's stored JSON text, escapes included: a key
            // with a backslash would silently match nothing. Both are refused.
            guard !segment.unicodeScalars.contains(where: { $0 == "\"" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }) else {
                throw OfflineStoreError(.invalidFieldPath, "field path '\(field)' contains a quote, backslash or control character")
            }
            path += ".\"\(segment)\""
        }
        return path
    }

    /// The SQL expression of a field: the `id` column, a declared field's index
    /// expression, or `json_extract` with the path bound.
    mutating func expression(_ field: String) throws -> String {
        if field == "id" { return "id" }
        if let declared = collection.fields?.first(where: { $0.name == field }), declared.isIndexed {
            return FieldIndex.expression(for: declared.name)
        }
        let path = try QueryBuilder.jsonPath(field)
        arguments += [path]
        return "json_extract(doc, ?)"
    }

    mutating func bind(_ value: JSONValue) throws -> String {
        switch value {
        case .null: return "NULL"
        case .bool(let b): arguments += [b ? 1 : 0]
        case .int(let i): arguments += [i]
        case .double(let d): arguments += [d]
        case .string(let s): arguments += [s]
        case .array, .object: arguments += [value.serialized()]
        }
        return "?"
    }

    mutating func sql(for condition: Condition) throws -> String {
        switch condition {
        case .equal(let f, .null): return "(\(try expression(f)) IS NULL)"
        case .notEqual(let f, .null): return "(\(try expression(f)) IS NOT NULL)"
        case .equal(let f, let v): return try compare(f, "=", v)
        case .notEqual(let f, let v): return try compare(f, "IS NOT", v)
        case .less(let f, let v): return try compare(f, "<", v)
        case .lessOrEqual(let f, let v): return try compare(f, "<=", v)
        case .greater(let f, let v): return try compare(f, ">", v)
        case .greaterOrEqual(let f, let v): return try compare(f, ">=", v)
        case .oneOf(let f, let values):
            guard !values.isEmpty else { return "0" }
            let e = try expression(f)
            let list = try values.map { try bind($0) }.joined(separator: ", ")
            return "(\(e) IN (\(list)))"
        case .contains(let f, let text):
            let e = try expression(f)
            arguments += [text]
            return "(instr(\(e), ?) > 0)"
        case .containsIgnoringCase(let f, let text):
            // GRDB registers `swiftLowercaseString` (Swift's `lowercased()`) on every
            // connection; it answers NULL for a value that is not text.
            let e = try expression(f)
            arguments += [text.lowercased()]
            return "(instr(swiftLowercaseString(\(e)), ?) > 0)"
        case .arrayContains(let f, let element):
            return try arrayContains(f, element)
        case .and(let parts):
            guard !parts.isEmpty else { return "1" }
            return "(" + (try parts.map { try sql(for: $0) }).joined(separator: " AND ") + ")"
        case .or(let parts):
            guard !parts.isEmpty else { return "0" }
            return "(" + (try parts.map { try sql(for: $0) }).joined(separator: " OR ") + ")"
        case .not(let inner):
            return "(NOT coalesce(\(try sql(for: inner)), 0))"
        }
    }

    /// An element of the array at `field` equals `element`: `json_each` over the array,
    /// nested arrays and objects skipped.
    private mutating func arrayContains(_ field: String, _ element: JSONValue) throws -> String {
        let path = try QueryBuilder.jsonPath(field)
        let match: String
        switch element {
        case .array, .object:
            throw OfflineStoreError(.invalidOperation, "arrayContains compares elements with a string, number, boolean or null, not an array or object")
        case .null:
            match = "json_each.type = 'null'"
            arguments += [path, path]
        default:
            arguments += [path, path]
            match = "json_each.type NOT IN ('array', 'object') AND json_each.value = \(try bind(element))"
        }
        return "(json_type(doc, ?) = 'array' AND EXISTS (SELECT 1 FROM json_each(doc, ?) WHERE \(match)))"
    }

    private mutating func compare(_ field: String, _ op: String, _ value: JSONValue) throws -> String {
        let e = try expression(field)
        if case .null = value { throw OfflineStoreError(.invalidOperation, "only equal/notEqual compare with null") }
        return "(\(e) \(op) \(try bind(value)))"
    }

    /// `INDEXED BY` naming a declared field index that a top-level comparison of the
    /// condition can use, or "".
    ///
    /// Only comparisons seek in an index: it orders whole values, so a text search or an
    /// array membership could only scan it, and (SQLite before 3.41 recomputes the
    /// expression from the row) that costs more than reading the collection's rows.
    ///
    /// Without ANALYZE statistics, SQLite's planner prefers the primary key's `collection`
    /// prefix to a field index on (collection, field), so declared indexes would never be used.
    func indexHint(for condition: Condition?) -> String {
        guard let condition, let field = indexableField(in: condition) else { return "" }
        return " INDEXED BY \(FieldIndex.quotedName(for: field))"
    }

    private func indexableField(in condition: Condition) -> String? {
        switch condition {
        case .equal(let f, let v), .less(let f, let v), .lessOrEqual(let f, let v),
             .greater(let f, let v), .greaterOrEqual(let f, let v):
            return v == .null ? nil : indexedField(f)
        case .oneOf(let f, let values):
            return values.isEmpty ? nil : indexedField(f)
        case .and(let parts):
            return parts.lazy.compactMap { indexableField(in: $0) }.first
        default:
            return nil
        }
    }

    private func indexedField(_ field: String) -> String? {
        collection.fields?.first { $0.name == field && $0.isIndexed }?.name
    }

    mutating func orderBy(_ keys: [SortKey]) throws -> String {
        var parts = try keys.map { "\(try expression($0.field)) \($0.ascending ? "ASC" : "DESC")" }
        parts.append("id ASC")
        return parts.joined(separator: ", ")
    }
}
