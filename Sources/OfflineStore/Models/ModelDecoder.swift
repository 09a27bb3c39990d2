import Foundation

/// Decodes `Decodable` values straight from ``JSONValue``s, without JSON text in between.
///
/// The counterpart of ``ModelEncoder``, with the same ``ModelCoding``.
///
/// ```swift
/// let todo = try ModelDecoder().decode(Todo.self, from: json)
/// ```
public struct ModelDecoder: Sendable {
    /// The decoding options.
    public var coding: ModelCoding

    /// A decoder with the given options (ISO 8601 dates by default).
    public init(coding: ModelCoding = ModelCoding()) { self.coding = coding }

    /// The value of type `type` that `json` holds.
    ///
    /// - Throws: `DecodingError` naming the coding path of the first mismatch.
    public func decode<T: Decodable>(_ type: T.Type = T.self, from json: JSONValue) throws -> T {
        try ValueDecoder(value: json, coding: coding, codingPath: []).decode(type)
    }
}

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let coding: ModelCoding
    /// The path of the container holding the value; with ``key``, the value's path. Kept
    /// apart so that decoding a member does not build a path array unless it is needed
    /// (a nested container, an error).
    let parentPath: [any CodingKey]
    let key: (any CodingKey)?
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(value: JSONValue, coding: ModelCoding, codingPath: [any CodingKey]) {
        self.init(value: value, coding: coding, parentPath: codingPath, key: nil)
    }

    init(value: JSONValue, coding: ModelCoding, parentPath: [any CodingKey], key: (any CodingKey)?) {
        self.value = value
        self.coding = coding
        self.parentPath = parentPath
        self.key = key
    }

    var codingPath: [any CodingKey] {
        guard let key else { return parentPath }
        return parentPath + [key]
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch([String: JSONValue].self) }
        return KeyedDecodingContainer(KeyedValueContainer<Key>(members: members, coding: coding, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch([JSONValue].self) }
        return UnkeyedValueContainer(items: items, coding: coding, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func mismatch(_ type: Any.Type) -> DecodingError {
        if value == .null {
            return DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "expected \(type), got null"))
        }
        return DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "expected \(type), got \(value.typeName)"))
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // Each cast below is to the type just compared with, so it cannot fail.
        if T.self == JSONValue.self { return value as! T }
        if T.self == String.self { return try decode(String.self) as! T }
        if T.self == Date.self { return try coding.date(value, codingPath: codingPath) as! T }
        if T.self == Decimal.self { return try ModelCoding.decimal(value, codingPath: codingPath) as! T }
        if T.self == URL.self {
            guard let url = URL(string: try decode(String.self)) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "not a URL"))
            }
            return url as! T
        }
        if T.self == Data.self {
            guard let data = Data(base64Encoded: try decode(String.self)) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "not Base64 text"))
            }
            return data as! T
        }
        return try T(from: self)
    }

    func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        switch value {
        case .int(let i): if let exact = I(exactly: i) { return exact }
        case .double(let d): if let exact = I(exactly: d) { return exact }
        default: break
        }
        throw mismatch(type)
    }

    func floating() throws -> Double {
        guard let d = value.doubleValue else { throw mismatch(Double.self) }
        return d
    }
}

extension ValueDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value == .null }
    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let b) = value else { throw mismatch(type) }
        return b
    }
    func decode(_ type: String.Type) throws -> String {
        guard case .string(let s) = value else { throw mismatch(type) }
        return s
    }
    func decode(_ type: Double.Type) throws -> Double { try floating() }
    func decode(_ type: Float.Type) throws -> Float { Float(try floating()) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
}

private struct KeyedValueContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let coding: ModelCoding
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func child(_ key: Key) throws -> ValueDecoder {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for '\(key.stringValue)'"))
        }
        return ValueDecoder(value: value, coding: coding, parentPath: codingPath, key: key)
    }

    // The primitives read the member directly: synthesized `init(from:)` calls these for
    // every `String`, `Bool` and number property, the hot path of a typed read.
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        if case .bool(let b)? = members[key.stringValue] { return b }
        return try child(key).decode(type)
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        if case .string(let s)? = members[key.stringValue] { return s }
        return try child(key).decode(type)
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        if case .double(let d)? = members[key.stringValue] { return d }
        return try child(key).decode(type)
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        if case .int(let i)? = members[key.stringValue], let exact = Int(exactly: i) { return exact }
        return try child(key).decode(type)
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        if case .int(let i)? = members[key.stringValue] { return i }
        return try child(key).decode(type)
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try child(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).decode(type) }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        switch members[key.stringValue] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        default: return try child(key).decode(type)
        }
    }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        switch members[key.stringValue] {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        default: return try child(key).decode(type)
        }
    }

    func decodeNil(forKey key: Key) throws -> Bool { (members[key.stringValue] ?? .null) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try child(key).decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: members["super"] ?? .null, coding: coding, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: members[key.stringValue] ?? .null, coding: coding, parentPath: codingPath, key: key)
    }
}

private struct UnkeyedValueContainer: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let coding: ModelCoding
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(items: [JSONValue], coding: ModelCoding, codingPath: [any CodingKey]) {
        self.items = items
        self.coding = coding
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private mutating func next(_ type: Any.Type) throws -> ValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "the array has ended"))
        }
        defer { currentIndex += 1 }
        return ValueDecoder(value: items[currentIndex], coding: coding, parentPath: codingPath, key: IndexKey(currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next(type).decode(type)
    }

    mutating func decode(_ type: String.Type) throws -> String {
        if !isAtEnd, case .string(let s) = items[currentIndex] { currentIndex += 1; return s }
        return try next(type).decode(type)
    }
    mutating func decode(_ type: Int.Type) throws -> Int {
        if !isAtEnd, case .int(let i) = items[currentIndex], let exact = Int(exactly: i) { currentIndex += 1; return exact }
        return try next(type).decode(type)
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        if !isAtEnd, case .double(let d) = items[currentIndex] { currentIndex += 1; return d }
        return try next(type).decode(type)
    }
    mutating func decode(_ type: Bool.Type) throws -> Bool {
        if !isAtEnd, case .bool(let b) = items[currentIndex] { currentIndex += 1; return b }
        return try next(type).decode(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next([String: JSONValue].self).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([JSONValue].self).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try next(Any.self) }
}
