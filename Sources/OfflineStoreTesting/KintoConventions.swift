import OfflineStore

/// What the in-memory server copies from Kinto: its id rule and the shape of its error bodies
/// (conventions the server follows, not decisions of the store: "Rule" names only those).
enum KintoConventions {
    /// Kinto's rule for record, bucket and collection ids.
    static let idPattern = "^[a-zA-Z0-9][a-zA-Z0-9_-]*$"

    /// Whether Kinto accepts `id` as a record or collection id.
    static func accepts(id: String) -> Bool {
        func isAlphanumeric(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard let first = id.utf8.first, isAlphanumeric(first) else { return false }
        return id.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    /// The body of a 400 "Invalid parameters" answer.
    static func invalidParameters(_ message: String) -> String {
        let body: JSONValue = ["code": 400, "errno": 107, "error": "Invalid parameters", "message": .string(message)]
        return body.serialized()
    }

    /// The body of the 400 answer to an id that breaks the id rule.
    static let invalidIDBody = invalidParameters("path: Invalid object id")

    /// The body of the 404 answer to a write into a collection that does not exist.
    static func missingCollectionBody(_ collection: String) -> String {
        let body: JSONValue = [
            "code": 404, "errno": 111, "error": "Not Found",
            "details": ["id": .string(collection), "resource_name": "collection"],
        ]
        return body.serialized()
    }

    /// The body of the 400 answer to a batch with more requests than allowed.
    static func batchTooLargeBody(_ limit: Int) -> String {
        invalidParameters("Number of requests is limited to \(limit)")
    }
}
