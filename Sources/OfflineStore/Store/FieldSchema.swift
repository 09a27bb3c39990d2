/// A declared field of a fixed-schema collection.
public struct FieldSchema: Sendable, Hashable, Codable {
    /// The JSON type a field holds.
    public enum FieldType: String, Sendable, Hashable, Codable, CaseIterable {
        /// A JSON string.
        case string
        /// A JSON integer.
        case integer
        /// Any JSON number (integer or floating point).
        case number
        /// `true` or `false`.
        case boolean
        /// A JSON object.
        case object
        /// A JSON array.
        case array
    }

    /// The field's name: letters, digits and `_`, not starting with a digit.
    public var name: String
    /// The JSON type the field must hold.
    public var type: FieldType
    /// Whether objects must have the field (with a non-null value).
    public var isRequired: Bool
    /// Whether the store keeps an SQLite index on the field, for fast `where` queries.
    public var isIndexed: Bool

    /// Declares a field.
    public init(_ name: String, _ type: FieldType, required: Bool = false, indexed: Bool = false) {
        self.name = name
        self.type = type
        self.isRequired = required
        self.isIndexed = indexed
    }

    /// Whether a field name can be declared (and so spliced into an index definition).
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 64 else { return false }
        let isLetter = { (b: UInt8) in (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 95 }
        guard isLetter(first) else { return false }
        return name.utf8.allSatisfy { isLetter($0) || ($0 >= 48 && $0 <= 57) }
    }

    func accepts(_ value: JSONValue) -> Bool {
        switch (type, value) {
        case (.string, .string), (.integer, .int), (.number, .int), (.number, .double),
             (.boolean, .bool), (.object, .object), (.array, .array): true
        default: false
        }
    }
}
