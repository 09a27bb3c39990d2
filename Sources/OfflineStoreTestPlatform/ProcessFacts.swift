import Foundation
import OfflineStorePlatform
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Facts about the running process, without `/proc` outside this file.
package enum ProcessFacts {
    /// This process's id.
    package static var processID: Int32 { getpid() }

    /// The most resident memory this process has used so far (its high-water mark), in bytes.
    ///
    /// Linux: `VmHWM` of `/proc/self/status`, the high-water mark of this process's own
    /// address space. Not `getrusage`'s `ru_maxrss`: after `exec` Linux keeps the larger of
    /// the old and new address spaces' marks, so a child started through `posix_spawn`
    /// (which runs on its parent's address space until `exec`) would report its parent's
    /// peak. Darwin: `getrusage(RUSAGE_SELF).ru_maxrss`, which Apple's getrusage(2)
    /// documents in bytes (a spawned process is a new task there).
    ///
    /// - Throws: ``SystemError`` when the figure cannot be read.
    package static func peakResidentBytes() throws -> Int {
        #if canImport(Darwin)
        var usage = rusage()
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { throw SystemError("getrusage", code: errno) }
        return Int(usage.ru_maxrss)
        #else
        let status: String
        do { status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8) } catch {
            throw SystemError("read /proc/self/status", code: EIO)
        }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 3, fields[2] == "kB", let kilobytes = Int(fields[1]) { return kilobytes * 1024 }
        }
        throw SystemError("no VmHWM line in /proc/self/status", code: EIO)
        #endif
    }

    /// The path of this process's executable, as the system records it.
    package static var executablePath: String? {
        Bundle.main.executablePath
    }
}
