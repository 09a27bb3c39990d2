import Foundation
#if canImport(Darwin)
import Darwin
#endif

/// The process's peak resident set size: the benchmark package's one platform-dependent
/// call. It is a package of its own, so it cannot see the library's `package`-level
/// platform layer (`Sources/OfflineStorePlatform`, whose `ProcessFacts` says why each
/// platform reads it this way); `ArchitectureTests` allows platform code here and nowhere
/// else in the package.
enum PeakMemory {
    /// The high-water mark of resident memory, in kB: `VmHWM` of `/proc/self/status` on
    /// Linux, `getrusage`'s `ru_maxrss` (bytes on Darwin) elsewhere.
    static func highWaterKilobytes() throws -> Int {
        #if canImport(Darwin)
        var usage = rusage()
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { throw BenchError("getrusage failed") }
        return Int(usage.ru_maxrss) / 1024
        #else
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            if let kb = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") { return kb }
        }
        throw BenchError("no VmHWM in /proc/self/status")
        #endif
    }
}
