import Foundation
import OfflineStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 over POSIX sockets: one request per connection
/// (`Connection: close`), each connection on a thread of its own, a synchronous handler.
///
/// Sockets block, so they stay off Swift's cooperative pool (two threads on a 2-core
/// machine); the handler is synchronous because every route either reads the store or
/// starts a background run. Reads and writes time out after ``ioTimeout``; at most
/// ``maxConnections`` connections are served at once (others get 503).
public final class LoopbackServer: Sendable {
    /// The port bound on 127.0.0.1.
    public let port: Int
    /// A connection idle this long in a read or write is closed.
    public static let ioTimeout = 10
    /// Connections served at once; a browser opens about six.
    public static let maxConnections = 32

    private let listener: Int32
    private let state = Locked(State())

    private struct State {
        var open = 0
        var stopped = false
    }

    /// Binds 127.0.0.1:`port` (0: a free port) and listens; call ``start(_:)`` to serve.
    ///
    /// - Throws: ``ServerError`` when the socket cannot be bound (e.g. the port is taken).
    public init(port: Int) throws {
        guard (0...65535).contains(port) else { throw ServerError("port \(port) is not in 0…65535") }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError("socket() failed: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && listen(fd, 64) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ServerError("cannot listen on 127.0.0.1:\(port): \(reason)")
        }
        self.listener = fd
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts accepting connections on a thread of its own; `handler` answers each request.
    public func start(_ handler: @escaping @Sendable (InspectorRequest) -> InspectorResponse) {
        let thread = Thread { [self] in acceptLoop(handler) }
        thread.name = "inspector-accept"
        thread.start()
    }

    /// Stops accepting; connections being served finish.
    public func stop() {
        let first = state.withLock { s -> Bool in
            defer { s.stopped = true }
            return !s.stopped
        }
        guard first else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop(_ handler: @escaping @Sendable (InspectorRequest) -> InspectorResponse) {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return  // the listener was closed by stop()
            }
            let admitted = state.withLock { s -> Bool in
                guard s.open < Self.maxConnections else { return false }
                s.open += 1
                return true
            }
            guard admitted else {
                Connection(fd: connection).respond(.error(503, "too many connections; try again"))
                continue
            }
            let thread = Thread { [self] in
                Connection(fd: connection).serve(handler)
                state.withLock { $0.open -= 1 }
            }
            thread.name = "inspector-connection"
            thread.start()
        }
    }
}

/// Why the server could not start.
public struct ServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in words.
    public let description: String

    init(_ description: String) { self.description = description }
}

/// One accepted socket: read one request, answer, close.
private struct Connection {
    let fd: Int32

    /// A peer that went away must not kill the process with SIGPIPE.
    #if os(Linux)
    static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    static let sendFlags: Int32 = 0
    #endif

    func serve(_ handler: (InspectorRequest) -> InspectorResponse) {
        var timeout = timeval(tv_sec: LoopbackServer.ioTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        do {
            let request = try read()
            var response = handler(request)
            if request.method == "HEAD" { response.body = [] }
            respond(response)
        } catch let error as HTTPParseError {
            respond(.error(error.status, error.message))
        } catch {
            close(fd)
        }
    }

    /// Reads the head up to the blank line, then `Content-Length` bytes of body.
    private func read() throws -> InspectorRequest {
        var buffer: [UInt8] = []
        let terminator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            guard buffer.count <= InspectorRequest.Limits.head else {
                throw HTTPParseError(431, "the request head is larger than \(InspectorRequest.Limits.head) bytes")
            }
            guard try receive(into: &buffer) else { throw HTTPParseError("the connection closed mid-request") }
            let from = max(0, buffer.count - 4096 - 3)
            if buffer.count >= 4, let found = search(terminator, in: buffer, from: from) { headEnd = found }
        }
        let end = headEnd!
        var (request, length) = try InspectorRequest.parseHead(Array(buffer[..<end]))
        var body = Array(buffer[(end + 4)...])
        while body.count < length {
            guard try receive(into: &body) else { throw HTTPParseError("the connection closed mid-body") }
        }
        request.body = Array(body.prefix(length))
        return request
    }

    private func receive(into buffer: inout [UInt8]) throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 {
            if errno == EINTR { return true }
            throw HTTPParseError(408, "reading the request timed out")
        }
        if count == 0 { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }

    private func search(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0], Array(haystack[index..<(index + needle.count)]) == needle { return index }
            index += 1
        }
        return nil
    }

    /// Writes the whole response, then closes the socket.
    func respond(_ response: InspectorResponse) {
        let bytes = response.serialized
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Self.sendFlags) }
            if count <= 0 { break }
            sent += count
        }
        close(fd)
    }
}
