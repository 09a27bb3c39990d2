import Foundation

/// One Kinto answer, either a whole HTTP response or one item of a `/batch` answer:
/// status, lowercased headers, the body parsed with ``JSONValue`` (nil when empty or
/// not JSON) and its raw text.
struct KintoReply: Sendable {
    /// The HTTP status.
    var status: Int
    /// Header fields, names lowercased.
    var headers: [String: String]
    /// The body as JSON; nil when empty or not JSON (or, for a 2xx answer read without
    /// parsing, not parsed: the caller reads ``body`` itself).
    var json: JSONValue?
    /// The body's bytes, as the server sent them.
    var body: Data

    /// The body as text.
    var text: String { String(decoding: body, as: UTF8.self) }

    /// Reads a transport answer; a body that is not JSON leaves ``json`` nil. With
    /// `parsingBody` false a 2xx body is left to the caller (a pull reads it record by record).
    init(_ response: HTTPResponse, parsingBody: Bool = true) {
        status = response.status
        headers = response.headers
        body = response.body
        let parses = parsingBody || !(200..<300).contains(response.status)
        json = !parses || response.body.isEmpty ? Optional<JSONValue>.none : try? JSONValue(parsing: response.body)
    }

    /// Reads one item of a batch answer, `{"status":…, "headers":{…}, "body":…}`.
    ///
    /// - Throws: ``OfflineStoreError/Code/badResponse`` when the item has no integer status.
    init(batchItem item: JSONValue, outerStatus: Int) throws {
        guard let status = item["status"]?.intValue, let code = Int(exactly: status) else {
            throw OfflineStoreError(.badResponse, "a Kinto batch answer item has no status",
                                    status: outerStatus, body: item.serialized())
        }
        self.status = code
        var headers: [String: String] = [:]
        for (name, value) in item["headers"]?.objectValue ?? [:] {
            headers[name.lowercased()] = value.stringValue ?? value.serialized()
        }
        self.headers = headers
        let body = item["body"]
        json = body
        self.body = Data((body.map { $0.stringValue ?? $0.serialized() } ?? "").utf8)
    }

    /// The value of a header, compared without case.
    func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// Whether the status is 2xx.
    var isSuccess: Bool { (200..<300).contains(status) }

    /// The server's wait hint: `Retry-After`, else `Backoff`.
    var retryAfter: Duration? {
        KintoBackoff.duration(header("Retry-After")) ?? KintoBackoff.duration(header("Backoff"))
    }

    /// The server's explanation: `message`, else `error`, else the status.
    var message: String {
        json?["message"]?.stringValue ?? json?["error"]?.stringValue ?? "HTTP \(status)"
    }

    /// The `data` object of the body.
    var dataObject: [String: JSONValue]? { json?["data"]?.objectValue }

    /// The `ETag` value without quotes, e.g. `1795267028700`.
    var etag: String? { header("ETag").map(Self.unquote) }

    /// A header value without surrounding double quotes (and a weak `W/` prefix).
    static func unquote(_ value: String) -> String {
        var text = value.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("W/") { text.removeFirst(2) }
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
            text = String(text.dropFirst().dropLast())
        }
        return text
    }

    /// An error for a whole request that did not succeed: 401 unauthorized, 403 forbidden,
    /// everything else `server` with status, body and retry hint.
    func error(_ what: String) -> OfflineStoreError {
        switch status {
        case 401:
            return OfflineStoreError(.unauthorized, "\(what): the server refused the credentials",
                                     status: status, body: text)
        case 403:
            return OfflineStoreError(.forbidden, "\(what): the user is not allowed to access this resource",
                                     status: status, body: text)
        default:
            return OfflineStoreError(.server, "\(what): \(message)", status: status, body: text,
                                     retryAfter: status >= 500 ? retryAfter : nil)
        }
    }

    /// An error for an answer whose body could not be understood.
    func badResponse(_ what: String) -> OfflineStoreError {
        OfflineStoreError(.badResponse, "\(what): the server's answer could not be understood",
                          status: status, body: text)
    }
}

/// Kinto's server-owned record fields, removed from what is sent and what is returned.
enum KintoRecord {
    /// Fields the server sets; never sent, never handed to the engine.
    static let serverOwnedFields: Set<String> = ["last_modified"]

    /// The object without server-owned fields; other values unchanged.
    static func strip(_ value: JSONValue) -> JSONValue {
        guard var object = value.objectValue else { return value }
        for field in serverOwnedFields { object[field] = nil }
        return .object(object)
    }

    /// `last_modified` of a record, if it is an integer.
    static func lastModified(_ object: [String: JSONValue]) -> Int64? {
        switch object["last_modified"] {
        case .int(let value)?: return value
        case .double(let value)? where value.rounded() == value && abs(value) < 9e18: return Int64(value)
        default: return nil
        }
    }

    /// The only fields of a Kinto tombstone.
    static let tombstoneFields: Set<String> = ["id", "last_modified", "deleted"]

    /// Whether a record is a tombstone: `"deleted": true` and nothing but `id` and `last_modified`
    /// besides. Kinto stores a live record whose data has `"deleted": true` as it is, so a record
    /// with other fields is not taken for a tombstone.
    static func isTombstone(_ object: [String: JSONValue]) -> Bool {
        object["deleted"]?.boolValue == true && object.keys.allSatisfy(tombstoneFields.contains)
    }
}
