/// A stored object that does not decode as its model: kept, never dropped, and reported.
///
/// Another client may write a string where the model has a number, or leave out a
/// required field. The object stays in the store as it is (the JSON API reads it,
/// refresh updates it, a newer model may decode it); typed reads list it in
/// ``ModelReadResult/undecodable``, and ``ModelCollection/find(_:)`` throws an
/// ``OfflineStoreError`` with code `undecodable` that carries it
/// (``OfflineStoreError/undecodableRecord``).
public struct UndecodableRecord: Error, Sendable, CustomStringConvertible {
    /// The collection of the object.
    public let collection: String
    /// The object's id.
    public let id: String
    /// The object as stored (local copy, else persistent copy).
    public let json: JSONValue
    /// Why it does not decode.
    public let error: DecodingError

    /// A short description naming the object and the first mismatch.
    public var description: String {
        "\(collection)/\(id) does not decode: \(UndecodableRecord.summary(of: error))"
    }

    /// The coding path and reason of a decoding error, on one line.
    static func summary(of error: DecodingError) -> String {
        let context: DecodingError.Context? = switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c): c
        @unknown default: nil
        }
        guard let context else { return "\(error)" }
        var path = context.codingPath.map(\.stringValue).joined(separator: ".")
        if case .keyNotFound(let key, _) = error { path += (path.isEmpty ? "" : ".") + key.stringValue }
        return "\(path.isEmpty ? "(root)" : path): \(context.debugDescription)"
    }
}

extension UndecodableRecord {
    /// The error the library throws for this record: code `undecodable`, the record in
    /// ``OfflineStoreError/undecodableRecord``.
    var thrown: OfflineStoreError {
        OfflineStoreError(.undecodable, description, underlyingError: self)
    }
}

extension OfflineStoreError {
    /// For code `undecodable`: the object that does not decode, with its collection, id,
    /// raw JSON (``UndecodableRecord/json``) and the `DecodingError`; nil for other codes.
    public var undecodableRecord: UndecodableRecord? { underlyingError as? UndecodableRecord }

    /// A model value JSON cannot hold (a non-finite double, a decimal with too many digits),
    /// or the model's own encoding error: code `invalidJSON`, the error in ``underlyingError``.
    static func unencodable(_ error: any Error, _ what: String) -> OfflineStoreError {
        if let error = error as? OfflineStoreError { return error }
        let detail = (error as? EncodingError).map(Self.summary(of:)) ?? "\(error)"
        return OfflineStoreError(.invalidJSON, "\(what) cannot be stored as JSON: \(detail)", underlyingError: error)
    }

    private static func summary(of error: EncodingError) -> String {
        guard case .invalidValue(_, let context) = error else { return "\(error)" }
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return "\(path.isEmpty ? "(root)" : path): \(context.debugDescription)"
    }
}

extension ModelEncoder {
    /// The JSON of a model value about to be stored or compared.
    ///
    /// - Throws: ``OfflineStoreError`` `invalidJSON` (``OfflineStoreError/unencodable(_:_:)``).
    func encodeForStore<T: Encodable>(_ value: T, _ what: @autoclosure () -> String) throws -> JSONValue {
        do { return try encode(value) } catch { throw OfflineStoreError.unencodable(error, what()) }
    }
}
