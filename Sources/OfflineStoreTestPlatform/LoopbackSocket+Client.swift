import OfflineStorePlatform
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The test suite's side of a loopback socket: clients of the inspector's server, and ports
/// for the servers the suite starts.
extension LoopbackSocket {
    /// Connects to 127.0.0.1:`port`.
    ///
    /// - Throws: ``SystemError`` when the connection is refused.
    package static func connect(port: Int) throws -> LoopbackSocket {
        let connection = try makeSocket()
        var address = loopbackAddress(port: port)
        let fd = connection.descriptor
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                cConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            let code = errno
            connection.close()
            throw SystemError("connect to 127.0.0.1:\(port)", code: code)
        }
        return connection
    }

    /// A port on 127.0.0.1 that was free a moment ago (bound, read and released).
    ///
    /// - Throws: ``SystemError`` when no socket can be bound.
    package static func freePort() throws -> Int {
        let (listener, port) = try listen(port: 0, backlog: 1)
        listener.close()
        return port
    }
}

/// `connect(2)`, under a name that does not collide with the type's own method.
private func cConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}
