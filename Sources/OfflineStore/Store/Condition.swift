/// A condition on JSON fields of objects, for `findAll(where:)` and friends.
///
/// Field paths are dotted (`"address.city"`); field names and values are always
/// bound as SQL parameters, never spliced into SQL.
///
/// ```swift
/// let open = try todos.findAll(where: .equal("done", false) && .greater("priority", 2))
/// let home = try notes.findAll(where: .arrayContains("tags", "home") || .containsIgnoringCase("title", "milk"))
/// ```
///
/// Every condition runs in SQLite. A comparison (`equal`, `oneOf`, `less`, …) on a declared
/// indexed field (``FieldSchema/isIndexed``) looks its values up in the field's index; a
/// text search or an array membership reads each object of the collection (an index of
/// whole values cannot find a substring or an element).
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
    /// The string field contains the text, compared exactly (case-sensitive: "Milk" does
    /// not contain "milk"); see ``containsIgnoringCase(_:_:)``.
    case contains(String, String)
    /// The string field contains the text, ignoring case: both are lower-cased as Swift's
    /// `lowercased()` does, for every script ("CRÈME" contains "crème"); accents still
    /// count ("crème" does not contain "creme"). Non-string fields never match. No
    /// wildcards: `%` and `_` are ordinary characters.
    case containsIgnoringCase(String, String)
    /// The array field has an element equal to the value (`.arrayContains("tags", "home")`):
    /// whole elements, compared as ``equal(_:_:)`` compares, never substrings. A field that
    /// is missing or not an array never matches. The value is a string, number, boolean or
    /// `null` (an array or object value throws `invalidOperation`).
    case arrayContains(String, JSONValue)
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
