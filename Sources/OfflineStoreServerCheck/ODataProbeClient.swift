import Foundation
import OfflineStore

/// The raw HTTP the OData probe sends: the probe measures what the service answers to each
/// request (a 409 or a 500, a 404 or a 412), so it does not go through the backend, which
/// reads those answers away.
struct ODataProbeClient {
    let serviceRoot: URL
    let headers: [String: String]
    let transport: any HTTPTransport
    let timeout: Duration

    /// A JSON answer: status, headers (lower-case names) and body.
    typealias Answer = HTTPResponse

    /// `target` relative to the service root (`Tasks`, `Tasks(1)`, `$batch`) or an absolute URL (a nextLink).
    func url(_ target: String) -> URL? {
        if target.hasPrefix("http://") || target.hasPrefix("https://") { return URL(string: target) }
        let root = serviceRoot.absoluteString.hasSuffix("/") ? serviceRoot : serviceRoot.appendingPathComponent("")
        return URL(string: target, relativeTo: root)?.absoluteURL
    }

    /// Sends one request and returns the answer whatever its status, except a refusal of
    /// the credentials.
    ///
    /// - Throws: ``OfflineStoreError`` `offline`/`timeout` when no answer came,
    ///   `unauthorized` on 401, `forbidden` on 403, `configuration` for a target that is no URL.
    func send(_ method: String, _ target: String, headers extra: [String: String] = [:], body: JSONValue? = nil) async throws -> Answer {
        guard let url = url(target) else { throw OfflineStoreError(.configuration, "check-server: \(target) is not a URL") }
        var all = ["Accept": "application/json", "OData-MaxVersion": "4.01"].merging(headers) { _, given in given }
        if body != nil { all["Content-Type"] = "application/json" }
        all.merge(extra) { _, given in given }
        let pairs = all.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let request = HTTPRequest(method: method, url: url, headers: pairs, body: body.map { Data($0.serialized().utf8) },
                                  timeout: timeout)
        let answer: HTTPResponse
        do { answer = try await transport.send(request) } catch let error as TransportError {
            throw OfflineStoreError(transport: error, while: "check-server: \(method) \(url.absoluteString)")
        }
        switch answer.status {
        case 401:
            throw OfflineStoreError(.unauthorized, "check-server: \(method) \(url.absoluteString) was refused (HTTP 401): "
                + ODataAnswerOutline.summary(answer.body, contentType: answer.header("content-type")))
        case 403 where method == "GET":
            throw OfflineStoreError(.forbidden, "check-server: \(method) \(url.absoluteString) was refused (HTTP 403): "
                + ODataAnswerOutline.summary(answer.body, contentType: answer.header("content-type")))
        default:
            return answer
        }
    }

    /// The body's JSON object, or nil.
    static func json(_ answer: Answer) -> [String: JSONValue]? {
        (try? JSONValue(parsing: answer.body))?.objectValue
    }

    /// The answer's body in one phrase, for details.
    static func summary(_ answer: Answer) -> String {
        ODataAnswerOutline.summary(answer.body, contentType: answer.header("content-type"))
    }
}
