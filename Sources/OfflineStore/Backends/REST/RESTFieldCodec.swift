import Foundation

/// A per-field hook between the local value and the wire value (NSRails
/// `encodeValueForProperty` / `decodeRemoteValue`).
///
/// A hook that throws turns into a typed error: ``OfflineStoreError/Code/badResponse``
/// for a server value, ``OfflineStoreError/Code/invalidJSON`` for a local one.
public struct RESTFieldCodec: Sendable {
    /// Local value → value sent.
    public var encode: @Sendable (JSONValue) throws -> JSONValue
    /// Value received → local value.
    public var decode: @Sendable (JSONValue) throws -> JSONValue

    /// Creates a codec from two hooks.
    public init(encode: @escaping @Sendable (JSONValue) throws -> JSONValue,
                decode: @escaping @Sendable (JSONValue) throws -> JSONValue) {
        self.encode = encode
        self.decode = decode
    }

    /// Rails decimals: a JSON string on the wire (`"9.99"`), a number locally; `null` stays `null`.
    public static let decimalString = RESTFieldCodec(
        encode: { value in
            switch value {
            case .null: return .null
            case .int(let i): return .string(String(i))
            case .double(let d): return .string(String(d))
            case .string(let s) where Double(s) != nil: return .string(s)
            default: throw RESTCodecError("a decimal must be a number, got \(value.typeName)")
            }
        },
        decode: { value in
            switch value {
            case .null, .int, .double: return value
            case .string(let s):
                if let i = Int64(s) { return .int(i) }
                guard let d = Double(s), d.isFinite else { throw RESTCodecError("\"\(s.prefix(40))\" is not a decimal") }
                return .double(d)
            default: throw RESTCodecError("a decimal must be a string or number, got \(value.typeName)")
            }
        })

    /// Ids: any scalar on the wire, a string locally (`42` → `"42"`), so references match object ids.
    public static let idString = RESTFieldCodec(
        encode: { $0 },
        decode: { value in
            switch value {
            case .null, .string: return value
            case .int(let i): return .string(String(i))
            default: throw RESTCodecError("an id must be a string or an integer, got \(value.typeName)")
            }
        })
}

/// Why a field hook refused a value.
public struct RESTCodecError: Error, Sendable, CustomStringConvertible {
    /// What was wrong.
    public var description: String
    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
