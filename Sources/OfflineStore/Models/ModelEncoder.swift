import Foundation

/// Encodes `Encodable` values straight into ``JSONValue``s, without JSON text in between.
///
/// Doubles stay doubles (`1.0` is `.double(1.0)`, where `JSONEncoder` writes `1`), and
/// dates, decimals, URLs and data follow ``ModelCoding``.
///
/// ```swift
/// let json = try ModelEncoder().encode(todo)   // .object(["id": "milk", "title": …])
/// ```
public struct ModelEncoder: Sendable {
    /// The encoding options.
    public var coding: ModelCoding

    /// An encoder with the given options (ISO 8601 dates by default).
    public init(coding: ModelCoding = ModelCoding()) { self.coding = coding }

    /// The JSON value of `value`.
    ///
    /// - Throws: `EncodingError` for a value JSON cannot hold (a non-finite double, a
    ///   decimal with too many digits) or the value's own encoding error.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        try EncodingNode.encode(value, coding: coding, codingPath: []).resolved()
    }
}

/// A JSON value being built: containers are filled in place as the value encodes.
private final class EncodingNode {
    enum Content {
        case empty
        case value(JSONValue)
        case object([String: EncodingNode])
        case array([EncodingNode])
    }

    var content: Content = .empty

    init(_ content: Content = .empty) { self.content = content }

    func resolved() -> JSONValue {
        switch content {
        case .empty: .object([:])
        case .value(let v): v
        case .object(let members): .object(members.mapValues { $0.resolved() })
        case .array(let items): .array(items.map { $0.resolved() })
        }
    }

    /// The node of a value, with the special cases `JSONEncoder` also makes.
    static func encode<T: Encodable>(_ value: T, coding: ModelCoding, codingPath: [any CodingKey]) throws -> EncodingNode {
        switch value {
        case let json as JSONValue: return EncodingNode(.value(json))
        case let string as String: return EncodingNode(.value(.string(string)))
        case let date as Date: return EncodingNode(.value(coding.json(date)))
        case let decimal as Decimal: return EncodingNode(.value(try ModelCoding.json(decimal, codingPath: codingPath)))
        case let url as URL: return EncodingNode(.value(.string(url.absoluteString)))
        case let data as Data: return EncodingNode(.value(.string(data.base64EncodedString())))
        default:
            let node = EncodingNode()
            try value.encode(to: NodeEncoder(node: node, coding: coding, codingPath: codingPath))
            return node
        }
    }

    static func double(_ d: Double, codingPath: [any CodingKey]) throws -> JSONValue {
        guard d.isFinite else {
            throw EncodingError.invalidValue(d, .init(codingPath: codingPath, debugDescription: "JSON cannot hold \(d)"))
        }
        return .double(d)
    }

    static func integer<I: BinaryInteger>(_ i: I, codingPath: [any CodingKey]) throws -> JSONValue {
        guard let exact = Int64(exactly: i) else {
            throw EncodingError.invalidValue(i, .init(codingPath: codingPath, debugDescription: "\(i) does not fit in 64 bits"))
        }
        return .int(exact)
    }
}

private struct NodeEncoder: Encoder {
    let node: EncodingNode
    let coding: ModelCoding
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([:]) }
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, coding: coding, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedNodeContainer(node: node, coding: coding, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleNodeContainer(node: node, coding: coding, codingPath: codingPath)
    }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let coding: ModelCoding
    let codingPath: [any CodingKey]

    private func set(_ child: EncodingNode, _ key: Key) {
        guard case .object(var members) = node.content else { return }
        node.content = .empty  // keeps the dictionary uniquely referenced while it changes
        members[key.stringValue] = child
        node.content = .object(members)
    }

    private func set(_ value: JSONValue, _ key: Key) { set(EncodingNode(.value(value)), key) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try EncodingNode.double(value, codingPath: codingPath + [key]), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try EncodingNode.double(Double(value), codingPath: codingPath + [key]), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.int(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(try EncodingNode.integer(value, codingPath: codingPath + [key]), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(try EncodingNode.integer(value, codingPath: codingPath + [key]), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(try EncodingNode.encode(value, coding: coding, codingPath: codingPath + [key]), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodingNode(.object([:]))
        set(child, key)
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: child, coding: coding, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = EncodingNode(.array([]))
        set(child, key)
        return UnkeyedNodeContainer(node: child, coding: coding, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = EncodingNode()
        set(child, key)
        return NodeEncoder(node: child, coding: coding, codingPath: codingPath + [key])
    }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    let coding: ModelCoding
    let codingPath: [any CodingKey]

    var count: Int {
        if case .array(let items) = node.content { return items.count }
        return 0
    }

    private var nextPath: [any CodingKey] { codingPath + [IndexKey(count)] }

    private func append(_ child: EncodingNode) {
        guard case .array(var items) = node.content else { return }
        node.content = .empty  // keeps the array uniquely referenced while it grows
        items.append(child)
        node.content = .array(items)
    }

    private func append(_ value: JSONValue) { append(EncodingNode(.value(value))) }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try EncodingNode.double(value, codingPath: nextPath)) }
    mutating func encode(_ value: Float) throws { append(try EncodingNode.double(Double(value), codingPath: nextPath)) }
    mutating func encode(_ value: Int) throws { append(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { append(.int(value)) }
    mutating func encode(_ value: UInt64) throws { append(try EncodingNode.integer(value, codingPath: nextPath)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        append(try EncodingNode.encode(value, coding: coding, codingPath: nextPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodingNode(.object([:]))
        let path = nextPath
        append(child)
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: child, coding: coding, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = EncodingNode(.array([]))
        let path = nextPath
        append(child)
        return UnkeyedNodeContainer(node: child, coding: coding, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let child = EncodingNode()
        let path = nextPath
        append(child)
        return NodeEncoder(node: child, coding: coding, codingPath: path)
    }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
    let node: EncodingNode
    let coding: ModelCoding
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .value(.null) }
    mutating func encode(_ value: Bool) throws { node.content = .value(.bool(value)) }
    mutating func encode(_ value: String) throws { node.content = .value(.string(value)) }
    mutating func encode(_ value: Double) throws { node.content = .value(try EncodingNode.double(value, codingPath: codingPath)) }
    mutating func encode(_ value: Float) throws { node.content = .value(try EncodingNode.double(Double(value), codingPath: codingPath)) }
    mutating func encode(_ value: Int) throws { node.content = .value(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { node.content = .value(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { node.content = .value(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { node.content = .value(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { node.content = .value(.int(value)) }
    mutating func encode(_ value: UInt) throws { node.content = .value(try EncodingNode.integer(value, codingPath: codingPath)) }
    mutating func encode(_ value: UInt8) throws { node.content = .value(.int(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { node.content = .value(.int(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { node.content = .value(.int(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { node.content = .value(try EncodingNode.integer(value, codingPath: codingPath)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        node.content = try EncodingNode.encode(value, coding: coding, codingPath: codingPath).content
    }
}

/// The coding key of an array element.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}
