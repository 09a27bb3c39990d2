import Foundation
import OfflineStore
import OfflineStorePlatform

/// A minimal HTTP/1.1 server on 127.0.0.1 over POSIX sockets (``LoopbackSocket``, the
/// platform layer: a browser that drops a connection cannot end the process with SIGPIPE,
/// on Linux or Darwin): one request per connection (`Connection: close`), each connection
/// on a thread of its own, a synchronous handler.
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

    private let listener: LoopbackSocket
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
        do { (listener, self.port) = try LoopbackSocket.listen(port: port) } catch let error as SystemError {
            throw ServerError("cannot listen on 127.0.0.1:\(port): \(error.reason)")
        }
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
        listener.shutdown()
        listener.close()
    }

    private func acceptLoop(_ handler: @escaping @Sendable (InspectorRequest) -> InspectorResponse) {
        while let connection = listener.accept() {  // nil once stop() closed the listener
            let admitted = state.withLock { s -> Bool in
                guard s.open < Self.maxConnections else { return false }
                s.open += 1
                return true
            }
            guard admitted else {
                Connection(socket: connection).respond(.error(503, "too many connections; try again"))
                continue
            }
            let thread = Thread { [self] in
                Connection(socket: connection).serve(handler)
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
    let socket: LoopbackSocket

    func serve(_ handler: (InspectorRequest) -> InspectorResponse) {
        socket.setTimeouts(seconds: LoopbackServer.ioTimeout)
        do {
            let request = try read()
            var response = handler(request)
            if request.method == "HEAD" { response.body = [] }
            respond(response)
        } catch let error as HTTPParseError {
            respond(.error(error.status, error.message))
        } catch {
            socket.close()
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
        let chunk: [UInt8]
        do { chunk = try socket.receive() } catch { throw HTTPParseError(408, "reading the request timed out") }
        if chunk.isEmpty { return false }
        buffer.append(contentsOf: chunk)
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

    /// Writes the whole response (or as much as the peer takes before it goes), then closes the socket.
    func respond(_ response: InspectorResponse) {
        socket.sendAll(response.serialized)
        socket.close()
    }
}
