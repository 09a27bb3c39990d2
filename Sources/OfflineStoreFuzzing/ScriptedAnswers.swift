import Foundation
import OfflineStore

/// HTTP answers written as text, one after another, the way the REST targets' corpus holds
/// them:
///
/// ```
/// 200
/// Link: <http://127.0.0.1:3000/customers.json?page=2>; rel="next"
///
/// [{"id":1,"name":"a","updated_at":"2026-01-01T00:00:00.000000Z","lock_version":0}]
/// =====
/// 404
///
/// ```
///
/// Each answer is a status line, header lines up to an empty line, and the body; answers are
/// separated by a line `=====`. A status that is not a number reads as 200.
enum ScriptedAnswers {
    static let separator = Array("\n=====\n".utf8)

    static func parse(_ bytes: [UInt8]) -> [HTTPResponse] {
        bytes.split(separator: separator).map(answer)
    }

    private static func answer(_ bytes: ArraySlice<UInt8>) -> HTTPResponse {
        var rest = bytes
        func line() -> String? {
            guard !rest.isEmpty else { return nil }
            let end = rest.firstIndex(of: 0x0A) ?? rest.endIndex
            let text = String(decoding: rest[rest.startIndex..<end], as: UTF8.self)
            rest = end < rest.endIndex ? rest[(end + 1)...] : []
            return text.hasSuffix("\r") ? String(text.dropLast()) : text
        }
        let status = line().flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { min(max($0, 100), 599) } ?? 200
        var headers: [String: String] = [:]
        while let header = line(), !header.isEmpty {
            guard let colon = header.firstIndex(of: ":") else { continue }
            headers[String(header[..<colon])] = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return HTTPResponse(status: status, headers: headers, body: Data(rest))
    }
}

/// A transport that gives scripted answers in order, records the requests, and fails as a
/// lost connection once the script is spent.
final class ScriptedTransport: HTTPTransport {
    private let state: Locked<(answers: [HTTPResponse], sent: [HTTPRequest])>

    init(_ answers: [HTTPResponse]) { state = Locked((answers, [])) }

    /// The requests sent so far.
    var sent: [HTTPRequest] { state.withLock { $0.sent } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let answer: HTTPResponse? = state.withLock { state in
            state.sent.append(request)
            return state.answers.isEmpty ? nil : state.answers.removeFirst()
        }
        guard let answer else { throw TransportError(.connectionLost, "the script has no more answers") }
        return answer
    }
}
