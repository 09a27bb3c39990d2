#if os(macOS) || os(Linux)
import Foundation
import OfflineStorePlatform
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A pseudo-terminal for a child process that must write to a terminal (a program that
/// draws a live line only there), without `script(1)`, whose options differ between
/// util-linux and the BSDs (macOS and Linux).
///
/// The child gets ``slavePath`` as a ``Subprocess/Output/terminal(_:)``; the parent reads
/// what it wrote from the master side with ``readToEnd()``. The parent holds the slave side
/// open too, until ``closeSlave()``, so the read does not end before the child has opened
/// it: call `closeSlave()` once the child has exited, and the read ends after the last byte.
/// The terminal's line discipline turns each newline the child writes into `\r\n`.
package final class PseudoTerminal: @unchecked Sendable {
    // @unchecked: `slave` changes only under `lock` (closed once); the rest is set in `init`.
    /// The master side's descriptor.
    private let master: Int32
    /// The parent's descriptor of the slave side; -1 once ``closeSlave()`` closed it.
    private var slave: Int32
    private let lock = NSLock()
    /// The slave side's device path, for the child.
    package let slavePath: String

    /// Opens a new pseudo-terminal pair.
    ///
    /// - Throws: ``SystemError`` when the system has none to give.
    package init() throws {
        let master = openMaster(O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw SystemError("posix_openpt", code: errno) }
        guard grantSlave(master) == 0, unlockSlave(master) == 0 else {
            let code = errno
            _ = closeDescriptor(master)
            throw SystemError("unlockpt", code: code)
        }
        var name = [CChar](repeating: 0, count: 128)
        let named = name.withUnsafeMutableBufferPointer { slaveName(master, $0.baseAddress!, $0.count) }
        guard named == 0 else {
            let code = named
            _ = closeDescriptor(master)
            throw SystemError("ptsname_r", code: code)
        }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            let code = errno
            _ = closeDescriptor(master)
            throw SystemError("open \(path)", code: code)
        }
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        self.master = master
        self.slave = slave
        slavePath = path
    }

    deinit {
        _ = closeDescriptor(master)
        closeSlave()
    }

    /// Closes the parent's slave side: once the child's is closed too, ``readToEnd()`` ends.
    package func closeSlave() {
        lock.lock()
        defer { lock.unlock() }
        if slave >= 0 { _ = closeDescriptor(slave) }
        slave = -1
    }

    /// Reads the master side until every slave descriptor is closed (blocks): everything the
    /// child wrote. Linux ends it with `EIO`, the BSDs with end of file.
    package func readToEnd() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { readFromTerminal(master, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += buffer.prefix(count)
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return bytes
            }
        }
    }
}

#if canImport(Darwin)
private func openMaster(_ flags: Int32) -> Int32 { posix_openpt(flags) }
private func grantSlave(_ fd: Int32) -> Int32 { grantpt(fd) }
private func unlockSlave(_ fd: Int32) -> Int32 { unlockpt(fd) }
private func slaveName(_ fd: Int32, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int) -> Int32 { ptsname_r(fd, buffer, size) }
#else
// Swift's Glibc and Musl modules leave these out (they sit behind feature macros in the C
// headers): they are looked up by name in the C library, where both define them.
private typealias IntFunction = @convention(c) (Int32) -> Int32
private typealias NameFunction = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

/// A C function of the running process by name (`RTLD_DEFAULT`, which is 0 on Glibc and Musl).
private func symbol<T>(_ name: String, as type: T.Type) -> T? {
    guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
    return unsafeBitCast(address, to: type)
}

private func openMaster(_ flags: Int32) -> Int32 {
    guard let function = symbol("posix_openpt", as: IntFunction.self) else { errno = ENOSYS; return -1 }
    return function(flags)
}
private func grantSlave(_ fd: Int32) -> Int32 {
    guard let function = symbol("grantpt", as: IntFunction.self) else { errno = ENOSYS; return -1 }
    return function(fd)
}
private func unlockSlave(_ fd: Int32) -> Int32 {
    guard let function = symbol("unlockpt", as: IntFunction.self) else { errno = ENOSYS; return -1 }
    return function(fd)
}
private func slaveName(_ fd: Int32, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int) -> Int32 {
    guard let function = symbol("ptsname_r", as: NameFunction.self) else { return ENOSYS }
    return function(fd, buffer, size)
}
#endif

/// `read(2)`, under a name that does not collide with the type's methods.
private func readFromTerminal(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
#endif
