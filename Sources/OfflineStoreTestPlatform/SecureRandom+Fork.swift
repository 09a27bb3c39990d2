import OfflineStorePlatform
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension SecureRandom {
    /// Whether the bytes come from a buffer of this process (Linux, Musl), which a fork must
    /// not share; false on Darwin.
    package static var buffersBytes: Bool {
        #if canImport(Darwin)
        false
        #else
        true
        #endif
    }

    /// What a child made by `fork()` draws first, and what the parent draws after the fork,
    /// 16 bytes each (nil where the platform's generator keeps its own state, Darwin, or when
    /// the fork fails). The tests check that the two differ: the buffer ``SecureRandom``
    /// keeps on Linux and Musl is discarded in a child.
    package static func drawsAcrossFork() -> (parent: [UInt8], child: [UInt8])? {
        #if canImport(Darwin)
        return nil
        #else
        _ = next128()  // the buffer holds bytes the child must not reuse
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        let pid = fork()
        if pid == 0 {
            var bytes = next128()
            _ = withUnsafeBytes(of: &bytes) { write(fds[1], $0.baseAddress, 16) }
            _exit(0)
        }
        close(fds[1])
        defer { close(fds[0]) }
        guard pid > 0 else { return nil }
        var child = [UInt8](repeating: 0, count: 16)
        let got = child.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, 16) }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        guard got == 16 else { return nil }
        var parent = next128()
        return (withUnsafeBytes(of: &parent) { Array($0) }, child)
        #endif
    }
}
