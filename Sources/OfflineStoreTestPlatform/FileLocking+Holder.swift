import Foundation
import OfflineStorePlatform
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension FileLocking {
    /// The process that holds the lock on `path` now, as its note says
    /// (``FileLocking/noteHolder(_:processID:)``); nil when nobody holds it or the holder has
    /// not written its note yet. Read only while the lock is held: a note left by a process
    /// that died is never trusted.
    package static func holder(of path: String) -> Int32? {
        guard isLocked(path) else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { _ = closeDescriptor(fd) }
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let pid = Int32(text), pid > 0 else { return nil }
        return pid
    }
}
