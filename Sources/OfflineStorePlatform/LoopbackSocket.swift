#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A blocking TCP socket on 127.0.0.1: the inspector's listener and its connections (the test
/// suite's loopback clients and free ports are `OfflineStoreTestPlatform`'s).
///
/// Writing to a connection whose peer has gone must not end the process with SIGPIPE:
/// Linux (Glibc, Musl) gets `MSG_NOSIGNAL` on every `send`; Darwin has no such flag, so
/// every socket gets the `SO_NOSIGPIPE` option when it is made or accepted (Apple's
/// setsockopt(2)). Both make the write fail with `EPIPE` instead.
package struct LoopbackSocket: Sendable {
    /// The descriptor.
    package let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Glibc imports `SOCK_STREAM` as an enum (`__socket_type`); Darwin and Musl as an `Int32` macro.
    private static var streamType: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    /// Flags for `send`: no SIGPIPE where the flag exists.
    private static var sendFlags: Int32 {
        #if canImport(Darwin)
        0
        #else
        Int32(MSG_NOSIGNAL)
        #endif
    }

    /// 127.0.0.1:`port` as a `sockaddr_in`.
    package static func loopbackAddress(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        return address
    }

    /// A new TCP socket, close-on-exec, with SIGPIPE off where that is a socket option.
    package static func makeSocket() throws -> LoopbackSocket {
        let fd = socket(AF_INET, streamType, 0)
        guard fd >= 0 else { throw SystemError("socket", code: errno) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let made = LoopbackSocket(descriptor: fd)
        made.suppressSIGPIPE()
        return made
    }

    private func suppressSIGPIPE() {
        #if canImport(Darwin)
        var yes: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Binds 127.0.0.1:`port` (0: a free port the system picks) and listens.
    ///
    /// - Returns: the listening socket and the port it is bound to.
    /// - Throws: ``SystemError`` when the port cannot be bound (e.g. it is taken).
    package static func listen(port: Int, backlog: Int32 = 64) throws -> (socket: LoopbackSocket, port: Int) {
        let listener = try makeSocket()
        var yes: Int32 = 1
        _ = setsockopt(listener.descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = loopbackAddress(port: port)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = listener.descriptor
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && cListen(fd, backlog) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            listener.close()
            throw SystemError("listen on 127.0.0.1:\(port)", code: code)
        }
        return (listener, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Waits for the next connection; nil once the listener was closed.
    package func accept() -> LoopbackSocket? {
        while true {
            let fd = cAccept(descriptor, nil, nil)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                let accepted = LoopbackSocket(descriptor: fd)
                accepted.suppressSIGPIPE()
                return accepted
            }
            let code = errno
            if code == EINTR || code == ECONNABORTED { continue }
            return nil
        }
    }

    /// Makes a read or write that waits longer than `seconds` fail (`SO_RCVTIMEO`, `SO_SNDTIMEO`).
    package func setTimeouts(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Reads what has arrived, up to `maximum` bytes: empty at end of stream. Retries when
    /// a signal interrupts the call.
    ///
    /// - Throws: ``SystemError`` when the read fails or times out (``SystemError/wouldBlock``).
    package func receive(maximum: Int = 4096) throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: maximum)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count >= 0 { return Array(chunk[..<count]) }
            let code = errno
            if code != EINTR { throw SystemError("recv", code: code) }
        }
    }

    /// Writes all of `bytes`; false when the peer went away or the write timed out.
    @discardableResult
    package func sendAll(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { cSend(descriptor, $0.baseAddress, $0.count, Self.sendFlags) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }

    /// Stops both directions, so a thread blocked in ``accept()`` or ``receive(maximum:)`` returns.
    package func shutdown() {
        _ = cShutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Closes the socket.
    package func close() {
        _ = closeDescriptor(descriptor)
    }
}

// The C calls under names that do not collide with this type's methods.
private func cListen(_ fd: Int32, _ backlog: Int32) -> Int32 { listen(fd, backlog) }
private func cAccept(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?,
                                    _ length: UnsafeMutablePointer<socklen_t>?) -> Int32 {
    accept(fd, address, length)
}
private func cSend(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(fd, bytes, count, flags)
}
private func cShutdown(_ fd: Int32, _ how: Int32) -> Int32 { shutdown(fd, how) }
