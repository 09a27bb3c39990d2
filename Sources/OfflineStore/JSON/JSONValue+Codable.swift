import Foundation

extension JSONValue: Codable {
    /// Decodes any JSON value from a `Decoder` (integers are tried before doubles).
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            var object: [String: JSONValue] = [:]
            for key in keyed.allKeys { object[key.stringValue] = try keyed.decode(JSONValue.self, forKey: key) }
            self = .object(object)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null }
        else if let b = try? single.decode(Bool.self) { self = .bool(b) }
        else if let i = try? single.decode(Int64.self) { self = .int(i) }
        else if let d = try? single.decode(Double.self) { self = .double(d) }
        else { self = .string(try single.decode(String.self)) }
    }

    /// Encodes the value into an `Encoder`.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer(); try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer(); try c.encode(b)
        case .int(let i):
            var c = encoder.singleValueContainer(); try c.encode(i)
        case .double(let d):
            var c = encoder.singleValueContainer(); try c.encode(d)
        case .string(let s):
            var c = encoder.singleValueContainer(); try c.encode(s)
        case .array(let a):
            var c = encoder.unkeyedContainer()
            for item in a { try c.encode(item) }
        case .object(let o):
            var c = encoder.container(keyedBy: AnyKey.self)
            for (k, v) in o { try c.encode(v, forKey: AnyKey(k)) }
        }
    }

    /// Converts an `Encodable` value into a JSON value with ``ModelEncoder``, the encoding
    /// typed models use (see ``ModelCoding``): doubles stay doubles, dates are ISO 8601
    /// with milliseconds, decimals are exact numbers.
    ///
    /// - Throws: `EncodingError` for a value JSON cannot hold, or the value's own error.
    public init<T: Encodable>(encoding value: T, coding: ModelCoding = ModelCoding()) throws {
        self = try ModelEncoder(coding: coding).encode(value)
    }

    /// Decodes a `Decodable` value from this value with ``ModelDecoder`` (see ``ModelCoding``).
    ///
    /// - Throws: `DecodingError` naming the coding path of the first mismatch.
    public func decode<T: Decodable>(_ type: T.Type = T.self, coding: ModelCoding = ModelCoding()) throws -> T {
        try ModelDecoder(coding: coding).decode(type, from: self)
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ s: String) { stringValue = s }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}
