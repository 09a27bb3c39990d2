/// A condition on JSON fields of objects, for `findAll(where:)` and friends.
///
/// Field paths are dotted (`"address.city"`); field names and values are always
/// bound as SQL parameters, never spliced into SQL.
///
/// ```swift
/// let open = try todos.findAll(where: .equal("done", false) && .greater("priority", 2))
/// ```
public indirect enum Condition: Sendable, Hashable {
    /// The field equals the value (`null` matches a missing field too).
    case equal(String, JSONValue)
    /// The field differs from the value (a missing field matches unless the value is `null`).
    case notEqual(String, JSONValue)
    /// The field is less than the value.
    case less(String, JSONValue)
    /// The field is less than or equal to the value.
    case lessOrEqual(String, JSONValue)
    /// The field is greater than the value.
    case greater(String, JSONValue)
    /// The field is greater than or equal to the value.
    case greaterOrEqual(String, JSONValue)
    /// The field equals one of the values.
    case oneOf(String, [JSONValue])
    /// The string field contains the text (case-sensitive).
    case contains(String, String)
    /// Both conditions hold.
    case and([Condition])
    /// At least one condition holds.
    case or([Condition])
    /// The condition does not hold.
    case not(Condition)

    /// Both conditions hold.
    public static func && (lhs: Condition, rhs: Condition) -> Condition { .and([lhs, rhs]) }
    /// At least one condition holds.
    public static func || (lhs: Condition, rhs: Condition) -> Condition { .or([lhs, rhs]) }
    /// The condition does not hold.
    public static prefix func ! (condition: Condition) -> Condition { .not(condition) }
}

/// An ordering of query results by a field.
public struct SortKey: Sendable, Hashable {
    /// The dotted field path.
    public var field: String
    /// Whether smaller values come first.
    public var ascending: Bool

    /// Orders by a field, ascending by default.
    public init(_ field: String, ascending: Bool = true) {
        self.field = field
        self.ascending = ascending
    }

    /// Orders by a field, ascending.
    public static func ascending(_ field: String) -> SortKey { SortKey(field) }
    /// Orders by a field, descending.
    public static func descending(_ field: String) -> SortKey { SortKey(field, ascending: false) }
}
