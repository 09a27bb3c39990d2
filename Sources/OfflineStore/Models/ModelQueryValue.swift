import Foundation

/// A type a typed query can compare a model's property with.
///
/// Conforming types are encoded with the model's ``ModelCoding`` and bound as SQL
/// parameters. The library's conformances cover strings, booleans, integers, floating-
/// point numbers, `Date`, `Decimal`, `UUID`, `URL`, ``JSONValue`` and optionals of them.
/// Add your enums with raw values (stored as their raw value; `CaseIterable` lets the store
/// find the field names of the models that hold them, see ``SyncModel``):
///
/// ```swift
/// enum Priority: String, Codable, Sendable, CaseIterable, ModelQueryValue { case low, high }
/// let urgent = try tasks.findAll(where: \.priority == .high)
/// ```
public protocol ModelQueryValue: Encodable, Sendable {}

extension String: ModelQueryValue {}
extension Bool: ModelQueryValue {}
extension Int: ModelQueryValue {}
extension Int8: ModelQueryValue {}
extension Int16: ModelQueryValue {}
extension Int32: ModelQueryValue {}
extension Int64: ModelQueryValue {}
extension UInt: ModelQueryValue {}
extension UInt8: ModelQueryValue {}
extension UInt16: ModelQueryValue {}
extension UInt32: ModelQueryValue {}
extension UInt64: ModelQueryValue {}
extension Double: ModelQueryValue {}
extension Float: ModelQueryValue {}
extension Date: ModelQueryValue {}
extension Decimal: ModelQueryValue {}
extension UUID: ModelQueryValue {}
extension URL: ModelQueryValue {}
extension JSONValue: ModelQueryValue {}
extension Optional: ModelQueryValue where Wrapped: ModelQueryValue {}
