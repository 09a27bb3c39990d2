import OfflineStore

/// One HTTP response: status, content type, extra headers and body.
public struct InspectorResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// The `Content-Type` header.
    public var contentType: String
    /// Headers besides `Content-Type`, `Content-Length` and `Connection`.
    public var headers: [String: String]
    /// The body bytes.
    public var body: [UInt8]

    /// A response with a body.
    public init(status: Int = 200, contentType: String, headers: [String: String] = [:], body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.body = body
    }

    /// A JSON document (the library's serializer: sorted keys, integers stay integers).
    public static func json(_ value: JSONValue, status: Int = 200) -> InspectorResponse {
        InspectorResponse(status: status, contentType: "application/json; charset=utf-8",
                     headers: ["Cache-Control": "no-store"], body: Array(value.serialized().utf8))
    }

    /// An error for the page: `{"error": message}` with the status.
    public static func error(_ status: Int, _ message: String) -> InspectorResponse {
        json(["error": .string(message)], status: status)
    }

    /// The body as text (tests and logs).
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The status line's reason phrase.
    var reason: String {
        switch status {
        case 200: "OK"
        case 202: "Accepted"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 431: "Request Header Fields Too Large"
        case 421: "Misdirected Request"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }

    /// The bytes on the wire (HTTP/1.1, `Connection: close`).
    var serialized: [UInt8] {
        var head = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
        head += "Connection: close\r\nX-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        return Array((head + "\r\n").utf8) + body
    }
}
