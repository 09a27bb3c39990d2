import Foundation
import OfflineStorePlatform
import OfflineStoreTestPlatform

/// A blocking HTTP/1.1 client for 127.0.0.1, on a thread of its own per request.
///
/// chromedriver writes its headers without a space after the colon (`Content-Length:249`),
/// which FoundationNetworking's URLSession on Linux rejects ("Failed writing header");
/// this client reads such headers. One request per connection (`Connection: close`).
enum LoopbackHTTPClient {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Sends one request to `url` (host must be 127.0.0.1) and returns the status and body.
    static func send(_ method: String, _ url: URL, body: Data? = nil,
                     timeout: Int = 60) async throws -> (status: Int, body: Data) {
        guard url.host == "127.0.0.1", let port = url.port else { throw Failure(description: "not a loopback URL: \(url)") }
        var target = url.path.isEmpty ? "/" : url.path
        if let query = url.query { target += "?" + query }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        let request = Data((head + "\r\n").utf8) + (body ?? Data())
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try exchange(request, port: port, timeout: timeout) })
            }.start()
        }
    }

    private static func exchange(_ request: Data, port: Int, timeout: Int) throws -> (status: Int, body: Data) {
        let socket: LoopbackSocket
        do { socket = try LoopbackSocket.connect(port: port) } catch {
            throw Failure(description: "cannot connect to 127.0.0.1:\(port)")
        }
        defer { socket.close() }
        socket.setTimeouts(seconds: timeout)
        guard socket.sendAll([UInt8](request)) else { throw Failure(description: "writing to 127.0.0.1:\(port) failed") }
        // Read until the head and `Content-Length` bytes of body are in: chromedriver keeps
        // the connection open despite `Connection: close`.
        var reply: [UInt8] = []
        while true {
            if let (status, headEnd, length) = try parseHead(reply), reply.count >= headEnd + 4 + length {
                return (status, Data(reply[(headEnd + 4)..<(headEnd + 4 + length)]))
            }
            let chunk: [UInt8]
            do { chunk = try socket.receive(maximum: 65536) } catch {
                throw Failure(description: "reading from 127.0.0.1:\(port) failed or timed out")
            }
            if chunk.isEmpty {
                guard let (status, headEnd, _) = try parseHead(reply) else {
                    throw Failure(description: "127.0.0.1:\(port) closed before answering")
                }
                return (status, Data(reply[(headEnd + 4)...]))
            }
            reply.append(contentsOf: chunk)
        }
    }

    /// The status, where the head ends and the `Content-Length` (header names read without
    /// regard to case or the space after the colon), once the head is complete.
    private static func parseHead(_ reply: [UInt8]) throws -> (Int, Int, Int)? {
        guard reply.count >= 4,
              let end = reply.indices.dropLast(3).first(where: { reply[$0...$0 + 3] == [13, 10, 13, 10] }) else { return nil }
        let lines = String(decoding: reply[..<end], as: UTF8.self).split(separator: "\r\n")
        let parts = (lines.first ?? "").split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw Failure(description: "bad status line: \(lines.first ?? "")")
        }
        var length = 0
        for line in lines.dropFirst() {
            let pair = line.split(separator: ":", maxSplits: 1)
            if pair.count == 2, pair[0].lowercased() == "content-length" {
                length = Int(pair[1].trimmingCharacters(in: .whitespaces)) ?? 0
            }
        }
        return (status, end, length)
    }
}
