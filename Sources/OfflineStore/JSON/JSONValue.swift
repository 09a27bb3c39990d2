/// A JSON value that keeps integers and floating-point numbers apart and keeps every key.
///
/// Objects synced by OfflineStore are `JSONValue.object`s with a string `"id"`.
/// `JSONValue(parsing:)` and ``serialized()`` read and write JSON text exactly
/// (`1` stays an integer, `1.0` stays a double), which Foundation's `JSONDecoder`
/// does not guarantee.
///
/// ```swift
/// let todo: JSONValue = ["title": "Buy milk", "done": false, "priority": 2]
/// ```
public enum JSONValue: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer that fits in 64 bits.
    case int(Int64)
    /// A floating-point number (finite).
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; keys are unique.
    case object([String: JSONValue])
}

extension JSONValue {
    /// The dictionary of an object, or nil for other values.
    public var objectValue: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The string, or nil for other values.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The integer, or nil for other values.
    public var intValue: Int64? {
        if case .int(let i) = self { return i }
        return nil
    }

    /// The number as a double, for integers and doubles; nil for other values.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// The boolean, or nil for other values.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The array, or nil for other values.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// Whether the value is JSON `null`.
    public var isNull: Bool { self == .null }

    /// The member of an object with this key, or nil (also for non-objects).
    public subscript(key: String) -> JSONValue? {
        get { objectValue?[key] }
        set {
            guard case .object(var o) = self else { return }
            o[key] = newValue
            self = .object(o)
        }
    }

    /// A short name of the value's JSON type, used in error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int: "integer"
        case .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

// Deliberately not ExpressibleByNilLiteral: with it, `nil` in a `JSONValue?` context
// (`flag ? nil : value`) silently becomes `.null` instead of "no value". Write `.null`.
extension JSONValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// Creates a boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Creates an integer.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// Creates a double.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// Creates a string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates an array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// Creates an object; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text of the value.
    public var description: String { serialized() }
}
