import Foundation
import OfflineStore
import OfflineStoreInspector

/// `inspector-request`: the bytes a browser (or anything on the machine) sends the inspector's
/// port, framed as its server frames them, into its HTTP request parser and, when they are a
/// request, its router over a read-only store.
enum InspectorRequestFuzzing {
    static let target = FuzzTarget(
        name: "inspector-request",
        summary: "raw request bytes → InspectorRequest.parseHead: HTTPParseError 400/413/501 or a request whose method, path, "
            + "headers and query are well-formed and read back the same when written again; the read-only router answers it "
            + "without a 500, with JSON",
        check: check)

    /// The port seeds name in `Host` (the default), replaced by the router's own.
    static let seedHost = "127.0.0.1:8484"

    static func check(_ input: [UInt8]) throws(PropertyViolation) {
        guard let end = input.split(separator: [13, 10, 13, 10]).first.map({ $0.endIndex }), end < input.count else { return }
        let head = Array(input[..<end])
        guard head.count <= InspectorRequest.Limits.head else { return }
        let parsed: (InspectorRequest, contentLength: Int)
        do {
            parsed = try InspectorRequest.parseHead(head)
        } catch let error as HTTPParseError {
            try require([400, 413, 501].contains(error.status), "a refused request is 400, 413 or 501", "\(error.status)")
            return
        } catch {
            throw PropertyViolation("parseHead throws only HTTPParseError", "\(error)")
        }
        var (request, length) = parsed
        try checkRequest(request, length: length)
        let body = input[(end + 4)...]
        guard body.count >= length else { return }
        request.body = Array(body.prefix(length))
        try checkRouted(request)
    }

    static func checkRequest(_ request: InspectorRequest, length: Int) throws(PropertyViolation) {
        try require(!request.method.isEmpty && !request.method.contains(" "), "a method is one non-empty word", shown(request.method))
        try require(request.path.hasPrefix("/") && !request.path.contains("?") && !request.path.contains(" "),
                    "a path starts with / and holds no query or space", shown(request.path))
        for (name, value) in request.headers {
            try require(!name.isEmpty && name == name.lowercased() && !name.contains(":"), "a header name is lowercased, without ':'",
                        shown(name))
            try require(value.trimmingCharacters(in: .whitespaces) == value, "a header value is trimmed", shown(value))
        }
        try require((0...InspectorRequest.Limits.body).contains(length), "a body length is within the limit", "\(length)")
        try require(length == (request.headers["content-length"].flatMap { Int($0) } ?? 0), "the body length is Content-Length's")
        // Written again (the query percent-encoded), the request reads back the same.
        var text = "\(request.method) \(request.path)"
        if !request.query.isEmpty {
            text += "?" + request.query.sorted { $0.key < $1.key }.map { "\(encoded($0.key))=\(encoded($0.value))" }.joined(separator: "&")
        }
        text += " HTTP/1.1\r\n" + request.headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)\r\n" }.joined()
        do {
            let (again, againLength) = try InspectorRequest.parseHead(Array(text.utf8))
            try require(again == request && againLength == length, "a request written again reads back the same",
                        "\(shown(request)) → \(shown(again))")
        } catch let violation as PropertyViolation {
            throw violation
        } catch {
            throw PropertyViolation("a request written again parses", "\(error) for \(shown(text))")
        }
    }

    /// The router answers every request with a status it documents and a JSON body for the API,
    /// never 500 (an error it did not expect) on a healthy store.
    static func checkRouted(_ request: InspectorRequest) throws(PropertyViolation) {
        var request = request
        if let host = request.headers["host"], host.lowercased() == seedHost || host.lowercased() == "localhost:8484" {
            request.headers["host"] = String(host.dropLast(4)) + String(inspector.url.port ?? 0)
        }
        let response = inspector.router.handle(request)
        try require([200, 400, 403, 404, 405, 409, 415, 421].contains(response.status), "the router answers a documented status",
                    "\(response.status): \(shown(response.text))")
        if response.contentType.hasPrefix("application/json") {
            let json = try? JSONValue(parsing: response.body)
            try require(json != nil, "a JSON answer parses", shown(response.text))
            if response.status != 200 {
                try require(json?["error"]?.stringValue != nil, "an error answer is {\"error\": message}", shown(response.text))
            }
        }
    }

    /// The query's characters that stay as they are; everything else is percent-encoded.
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// A read-only inspector over an in-memory store with a few objects (its socket is bound,
    /// never served: requests go to the router directly).
    static let inspector: Inspector = {
        do {
            let store = try ObjectStore.inMemory()
            try store.register(CollectionDescriptor("todos"))
            try store.register(CollectionDescriptor("notes", localOnly: true))
            runBlocking {
                _ = try? await store.collection("todos").create(["id": "milk", "title": "Buy milk", "done": false, "n": 2])
                _ = try? await store.collection("todos").create(["id": "tea", "title": "Tea", "tags": ["home"], "n": 2.5])
                _ = try? await store.collection("notes").create(["id": "n1", "text": "é", "nested": ["a": ["b": 1]]])
            }
            return try Inspector(store: store, configuration: .init(port: 0))
        } catch {
            fatalError("the inspector target's store could not be made: \(error)")
        }
    }()
}
