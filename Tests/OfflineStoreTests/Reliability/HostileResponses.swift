import Foundation
import OfflineStore
import PropertyBased

/// Generators of hostile Kinto answers: every response shape the backend reads, valid,
/// truncated, with wrong types, deep nesting, enormous numbers or invalid UTF-8.
enum HostileResponses {
    /// Bodies shaped like what Kinto sends, with `%V` (a value), `%N` (a number) and `%S`
    /// (a string) left to fill.
    static let templates: [String] = [
        #"{"settings":{"batch_max_requests":%N},"project_name":"kinto"}"#,
        #"{"data":[{"id":%S,"last_modified":%N,"v":%V}]}"#,
        #"{"data":[{"id":%S,"last_modified":%N,"deleted":%V}]}"#,
        #"{"data":%V}"#,
        #"{"data":{"id":%S,"last_modified":%N,"v":%V}}"#,
        #"{"code":412,"errno":114,"details":{"existing":{"id":%S,"last_modified":%N}}}"#,
        #"{"code":%N,"errno":%N,"error":%S,"message":%S,"details":%V}"#,
        #"{"responses":[{"status":%N,"path":%S,"headers":{"ETag":%S},"body":{"data":{"id":%S,"last_modified":%N}}}]}"#,
        #"{"responses":[{"status":412,"body":{"details":{"existing":%V}}},{"status":%V}]}"#,
        #"{"responses":%V}"#,
        #"%V"#,
    ]

    static let numbers = ["0", "-1", "1e999", "-1e999", "9223372036854775807", "9223372036854775808",
                          "-9223372036854775808", "123456789012345678901234567890", "1.5", "1e-400", "0.0", "NaN", "1e300"]
    static let strings = [#""a""#, #""""#, #""../other/records/x""#, #""\u0000""#, #""\ud800""#, "\"\u{1F600}\"",
                          #""\"""#, "\"\(String(repeating: "x", count: 10_000))\"", "\"a\u{7F}b\""]
    static let values = ["null", "true", "[]", "{}", "\"s\"", "1", "[1,[2,[3]]]",
                         String(repeating: "[", count: 300) + String(repeating: "]", count: 300),
                         String(repeating: "{\"a\":", count: 300) + "1" + String(repeating: "}", count: 300)]
    static let headerValues = ["\"1\"", "\"-9223372036854775808\"", "\"9223372036854775807\"", "abc", "", "1e300",
                               "-5", "99999999999999999999", "http://evil.example/v1/x", "\"\u{0}\"", "NaN", "inf"]

    /// A hostile response: a status, a body from a template (possibly truncated or with a
    /// byte flipped into invalid UTF-8) and hostile headers.
    static let response = Gen<UInt64>.value().map { seed in
        var random = ObjectStoreCrashTests.SeededGenerator(seed: seed)
        return make(using: &random)
    }

    /// The response a seed stands for (PropertyBased draws the seed and shrinks it).
    static func make(using random: inout ObjectStoreCrashTests.SeededGenerator) -> HTTPResponse {
        var body = templates.randomElement(using: &random)!
        for (mark, pool) in [("%V", values), ("%N", numbers), ("%S", strings)] {
            while let range = body.range(of: mark) { body.replaceSubrange(range, with: pool.randomElement(using: &random)!) }
        }
        var bytes = Array(body.utf8)
        switch Int.random(in: 0..<4, using: &random) {
        case 0 where !bytes.isEmpty: bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
        case 1 where !bytes.isEmpty: bytes[Int.random(in: 0..<bytes.count, using: &random)] = [0xFF, 0xC0, 0x80, 0xED].randomElement(using: &random)!
        case 2: bytes = (0..<Int.random(in: 0..<64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        default: break
        }
        var headers = ["Content-Type": Bool.random(using: &random) ? "application/json" : "text/html"]
        for name in ["ETag", "Next-Page", "Backoff", "Retry-After", "Total-Records"] where Bool.random(using: &random) {
            headers[name] = headerValues.randomElement(using: &random)!
        }
        let status = [200, 200, 201, 204, 304, 401, 403, 404, 409, 412, 422, 500, 503, 599, 99].randomElement(using: &random)!
        return HTTPResponse(status: status, headers: headers, body: Data(bytes))
    }
}
