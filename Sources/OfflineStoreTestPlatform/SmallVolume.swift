#if os(macOS) || os(Linux)
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A small file system of its own, for tests that fill a disk for real (`ENOSPC`).
package enum SmallVolume {
    /// Mounts a file system of `kilobytes` at `path` (an empty directory); false where that
    /// is not permitted, and the caller simulates a full disk instead.
    ///
    /// Linux: a tmpfs (`mount -t tmpfs`, root only). macOS: not attempted (a RAM disk needs
    /// `hdiutil` and `diskutil` and leaves a device behind when a run is killed).
    package static func mount(at path: String, kilobytes: Int) -> Bool {
        #if os(Linux)
        run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0700", "tmpfs", path])
        #else
        false
        #endif
    }

    /// Unmounts what ``mount(at:kilobytes:)`` mounted.
    package static func unmount(_ path: String) {
        #if os(Linux)
        _ = run("/bin/umount", [path])
        #endif
    }

    /// Runs a command as root; true when it exits 0.
    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: tool),
              let child = try? Subprocess(executable: tool, arguments: arguments,
                                            standardOutput: .discard, standardError: .discard) else { return false }
        return child.waitForExit() == 0
    }
}
#endif
