import Foundation

/// What the body of a failed OData answer holds, read without throwing: an OData error
/// object (`{"error":{"code","message","target","details"}}`), or something else named as
/// what it is (an HTML page, plain text, other JSON, nothing), so that a message can say
/// what the server answered. A proxy's HTML page or a framework's plain-text 401 is named
/// as such, never taken for the service's own error.
enum ODataErrorAnswer: Sendable, Equatable {
    /// The service's error object.
    case error(ODataServiceError)
    /// An HTML page, with its `<title>` if it has one.
    case html(title: String?)
    /// Plain text (the first 200 characters).
    case text(String)
    /// JSON that is not an OData error object: the top-level member names, sorted (empty
    /// when it is not an object).
    case otherJSON(keys: [String])
    /// No body at all.
    case empty
    /// Bytes that are not UTF-8 text.
    case binary(count: Int)

    /// Reads a failed answer's body; `contentType` is its `Content-Type` header, if any.
    static func read(_ body: some ContiguousBytes, contentType: String?) -> ODataErrorAnswer {
        let bytes = body.withUnsafeBytes { Array($0) }
        let trimmed = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        guard let first = trimmed.first else { return .empty }
        let type = (contentType ?? "").lowercased()
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || type.contains("json") {
            if let json = try? JSONValue(parsing: bytes) {
                if let error = ODataServiceError(json) { return .error(error) }
                return .otherJSON(keys: json.objectValue?.keys.sorted() ?? [])
            }
        }
        guard let text = UTF8Validation.string(bytes) else { return .binary(count: bytes.count) }
        if type.contains("html") || Self.looksLikeHTML(text) { return .html(title: Self.title(of: text)) }
        return .text(String(text.trimmingCharacters(in: .whitespacesAndNewlines).prefix(200)))
    }

    /// One phrase for messages: "error PreconditionFailed: The If-Match precondition failed.",
    /// "an HTML page (502 Bad Gateway)", "plain text: Unauthorized".
    var summary: String {
        switch self {
        case .error(let error): return error.summary
        case .html(let title): return title.map { "an HTML page (\($0))" } ?? "an HTML page"
        case .text(let text): return "plain text: \(text)"
        case .otherJSON(let keys): return keys.isEmpty ? "JSON that is not an error object"
            : "JSON that is not an error object (keys: \(keys.joined(separator: ", ")))"
        case .empty: return "an empty body"
        case .binary(let count): return "\(count) bytes that are not text"
        }
    }

    private static func looksLikeHTML(_ text: String) -> Bool {
        let start = text.drop { $0.isWhitespace }.prefix(15).lowercased()
        return start.hasPrefix("<!doctype html") || start.hasPrefix("<html")
    }

    private static func title(of text: String) -> String? {
        guard let open = text.range(of: "<title>", options: .caseInsensitive),
              let close = text.range(of: "</title>", options: .caseInsensitive, range: open.upperBound..<text.endIndex)
        else { return nil }
        let title = text[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        return title.isEmpty ? nil : String(title.prefix(200))
    }
}

/// The `error` object of an OData error answer (OData JSON Format, 21.2).
struct ODataServiceError: Sendable, Equatable {
    /// The service's code: `"412"` from odatapy, `"PreconditionFailed"` from others; may be empty.
    let code: String
    /// The message; `{"value": …}` messages (OData 3 and some 4.0 servers) are read too.
    let message: String
    /// What the error is about, e.g. a property name; nil when absent or null.
    let target: String?
    /// The `details` array, each read the same way (without details of its own).
    let details: [ODataServiceError]

    /// Reads `{"error":{…}}`; nil when `json` is not an OData error object (no `error` object
    /// with a string `code` or `message`).
    init?(_ json: JSONValue) {
        guard let error = json["error"], let fields = Self.fields(error) else { return nil }
        (code, message, target) = fields
        details = (error["details"]?.arrayValue ?? []).compactMap { detail in
            Self.fields(detail).map { ODataServiceError(code: $0.0, message: $0.1, target: $0.2) }
        }
    }

    private init(code: String, message: String, target: String?) {
        self.code = code
        self.message = message
        self.target = target
        details = []
    }

    private static func fields(_ value: JSONValue) -> (String, String, String?)? {
        guard value.objectValue != nil else { return nil }
        let code = value["code"]?.stringValue
        let message = value["message"]?.stringValue ?? value["message"]?["value"]?.stringValue
        guard code != nil || message != nil else { return nil }
        return (code ?? "", message ?? "", value["target"]?.stringValue)
    }

    /// "error PreconditionFailed: … (target CustomerID)".
    var summary: String {
        var text = code.isEmpty ? "error" : "error \(code)"
        if !message.isEmpty { text += ": \(message)" }
        if let target { text += " (target \(target))" }
        if !details.isEmpty { text += "; " + details.map(\.summary).joined(separator: "; ") }
        return text
    }
}
