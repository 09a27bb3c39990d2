/// A filter the server evaluates (RhoConnect `search`, Kinto `?field=value` filters).
///
/// ```swift
/// let query = ServerQuery([.equal("status", "open"), .greaterThan("priority", 2)])
/// ```
/// Every term must hold (AND). Backends translate terms to their own parameters;
/// `KintoBackend` sends `status=open&gt_priority=2`.
public struct ServerQuery: Sendable, Hashable, Codable {
    /// One comparison of a top-level field with a value.
    public struct Term: Sendable, Hashable, Codable {
        /// How the field is compared.
        public enum Operator: String, Sendable, Hashable, CaseIterable, Codable {
            /// field == value
            case equal
            /// field != value
            case notEqual
            /// field is one of the values (an array)
            case isIn
            /// field is none of the values (an array)
            case notIn
            /// field < value
            case lessThan
            /// field > value
            case greaterThan
            /// field >= value
            case atLeast
            /// field <= value
            case atMost
            /// the string field contains value (a string)
            case contains
            /// the field is present (value true) or absent (value false)
            case has
        }
        /// The top-level field name (letters, digits, `_`).
        public var field: String
        /// The comparison.
        public var op: Operator
        /// The value compared with (an array for `isIn` / `notIn`, a bool for `has`).
        public var value: JSONValue

        /// Creates a term.
        public init(_ field: String, _ op: Operator, _ value: JSONValue) {
            self.field = field
            self.op = op
            self.value = value
        }

        /// field == value.
        public static func equal(_ field: String, _ value: JSONValue) -> Term { Term(field, .equal, value) }
        /// field is one of the values.
        public static func isIn(_ field: String, _ values: [JSONValue]) -> Term { Term(field, .isIn, .array(values)) }
        /// field > value.
        public static func greaterThan(_ field: String, _ value: JSONValue) -> Term { Term(field, .greaterThan, value) }
        /// field < value.
        public static func lessThan(_ field: String, _ value: JSONValue) -> Term { Term(field, .lessThan, value) }
    }

    /// The terms, all of which must hold; empty matches everything.
    public var terms: [Term]

    /// Creates a query.
    public init(_ terms: [Term] = []) { self.terms = terms }

    /// Checks field names and value shapes.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidFieldPath`` for a field that is not a plain
    ///   name; ``OfflineStoreError/Code/invalidJSON`` for a value of the wrong shape.
    public func validate() throws {
        for term in terms {
            guard FieldSchema.isValidName(term.field) else {
                throw OfflineStoreError(.invalidFieldPath, "server query field '\(term.field.prefix(64))' must be letters, digits and '_'")
            }
            switch term.op {
            case .isIn, .notIn:
                guard let values = term.value.arrayValue, !values.isEmpty,
                      values.allSatisfy({ $0.isScalar }) else {
                    throw OfflineStoreError(.invalidJSON, "server query '\(term.op.rawValue) \(term.field)' needs a non-empty array of scalars")
                }
            case .has:
                guard case .bool = term.value else {
                    throw OfflineStoreError(.invalidJSON, "server query 'has \(term.field)' needs true or false")
                }
            case .contains:
                guard term.value.stringValue != nil else {
                    throw OfflineStoreError(.invalidJSON, "server query 'contains \(term.field)' needs a string")
                }
            default:
                guard term.value.isScalar else {
                    throw OfflineStoreError(.invalidJSON, "server query '\(term.op.rawValue) \(term.field)' needs a scalar value")
                }
            }
        }
    }

    /// Whether a record matches every term (for backends that filter themselves).
    public func matches(_ record: JSONValue) -> Bool {
        terms.allSatisfy { $0.matches(record[$0.field]) }
    }
}

extension ServerQuery.Term {
    /// Whether a field's value (nil when absent) satisfies the term.
    func matches(_ field: JSONValue?) -> Bool {
        switch op {
        case .has: return (field != nil) == (value == .bool(true))
        case .equal: return field.map { Self.same($0, value) } ?? false
        case .notEqual: return !(field.map { Self.same($0, value) } ?? false)
        case .isIn: return field.map { f in (value.arrayValue ?? []).contains { Self.same(f, $0) } } ?? false
        case .notIn: return !(field.map { f in (value.arrayValue ?? []).contains { Self.same(f, $0) } } ?? false)
        case .contains:
            guard let s = field?.stringValue, let needle = value.stringValue else { return false }
            return s.contains(needle)
        case .lessThan, .greaterThan, .atLeast, .atMost:
            guard let field, let order = Self.compare(field, value) else { return false }
            switch op {
            case .lessThan: return order < 0
            case .greaterThan: return order > 0
            case .atLeast: return order >= 0
            default: return order <= 0
            }
        }
    }

    private static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let x = a.doubleValue, let y = b.doubleValue { return x == y }
        return a == b
    }

    private static func compare(_ a: JSONValue, _ b: JSONValue) -> Int? {
        if let x = a.doubleValue, let y = b.doubleValue { return x < y ? -1 : (x > y ? 1 : 0) }
        if let x = a.stringValue, let y = b.stringValue { return x < y ? -1 : (x > y ? 1 : 0) }
        return nil
    }
}

extension JSONValue {
    /// Whether the value is a string, number, bool or null.
    var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }
}
