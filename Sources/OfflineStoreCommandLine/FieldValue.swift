import OfflineStore

/// `FIELD=VALUE` on the command line: VALUE is read as JSON when it parses, else as a string.
package struct FieldValue {
    /// The text before the first `=`.
    package var field: String
    /// The text after it, as JSON when it parses, else as a string.
    package var value: JSONValue

    /// Nil when `text` has no `=` or nothing before it.
    package init?(_ text: String) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else { return nil }
        field = String(text[..<equals])
        let raw = String(text[text.index(after: equals)...])
        value = (try? JSONValue(parsing: raw)) ?? .string(raw)
    }
}

/// `--where FIELD=VALUE` (``FieldValue``).
package struct WhereClause {
    /// The field path (dotted).
    package var field: String
    /// The value the field must equal.
    package var value: JSONValue

    /// Nil when `argument` is not `FIELD=VALUE` (ArgumentParser then reports a usage error).
    package init?(argument: String) {
        guard let pair = FieldValue(argument) else { return nil }
        (field, value) = (pair.field, pair.value)
    }

    /// The condition the clause keeps objects by.
    package var condition: Condition { .equal(field, value) }
}
