import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(fd) }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { throw Failure(description: "cannot connect to 127.0.0.1:\(port)") }
        let bytes = [UInt8](request)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw Failure(description: "writing to 127.0.0.1:\(port) failed") }
            sent += n
        }
        // Read until the head and `Content-Length` bytes of body are in: chromedriver keeps
        // the connection open despite `Connection: close`.
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let (status, headEnd, length) = try parseHead(reply), reply.count >= headEnd + 4 + length {
                return (status, Data(reply[(headEnd + 4)..<(headEnd + 4 + length)]))
            }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 { throw Failure(description: "reading from 127.0.0.1:\(port) failed or timed out") }
            if n == 0 {
                guard let (status, headEnd, _) = try parseHead(reply) else {
                    throw Failure(description: "127.0.0.1:\(port) closed before answering")
                }
                return (status, Data(reply[(headEnd + 4)...]))
            }
            reply.append(contentsOf: chunk[..<n])
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
