/// The SQLite index on a declared field, and the expression queries must repeat to use it.
enum FieldIndex {
    /// The indexed expression; `name` is a declared field name (letters, digits, `_` only).
    static func expression(for name: String) -> String {
        precondition(FieldSchema.isValidName(name))
        return "json_extract(doc, '$.\(name)')"
    }

    /// The index's name, quoted for SQL; `name` is a declared field name.
    static func quotedName(for name: String) -> String {
        precondition(FieldSchema.isValidName(name))
        return "\"objects_field_\(name)\""
    }

    static func createSQL(for name: String) -> String {
        "CREATE INDEX IF NOT EXISTS \(quotedName(for: name)) ON objects(collection, \(expression(for: name)))"
    }
}
