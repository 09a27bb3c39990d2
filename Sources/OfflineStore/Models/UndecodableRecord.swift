/// A stored object that does not decode as its model: kept, never dropped, and reported.
///
/// Another client may write a string where the model has a number, or leave out a
/// required field. The object stays in the store as it is (the JSON API reads it,
/// refresh updates it, a newer model may decode it); typed reads list it in
/// ``ModelReadResult/undecodable`` and ``ModelCollection/find(_:)`` throws it.
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
