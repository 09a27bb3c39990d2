#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#else
#error("OfflineStorePlatform supports Darwin, Glibc and Musl")
#endif

/// A system call that failed: what was attempted, and the C library's error number.
package struct SystemError: Error, Sendable, CustomStringConvertible {
    /// What was attempted, e.g. "flock /path/store.sqlite.sync-lock".
    package let operation: String
    /// `errno` right after the call.
    package let code: Int32

    /// An error for `operation`; pass `errno` read right after the failing call.
    package init(_ operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// The C library's text for the error number.
    package var reason: String { String(cString: strerror(code)) }

    package var description: String { "\(operation): \(reason)" }

    /// The call would have blocked (`EWOULDBLOCK`/`EAGAIN`), e.g. a lock held elsewhere or a socket timeout.
    package var wouldBlock: Bool { code == EWOULDBLOCK || code == EAGAIN }
}
