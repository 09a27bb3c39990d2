import Foundation

/// CPU time used by server processes and their descendants, read from Linux's `/proc`: in the
/// benchmark package's platform folder (it cannot see the library's `package`-level layer,
/// `Sources/OfflineStorePlatform`). For the fleet rows: the Kinto nodes and the PostgreSQL
/// postmaster, whose backends are its children. The servers run on Linux (`scripts/cluster`);
/// elsewhere this throws.
enum ServerProcessCPU {
    /// Seconds of CPU (user + system) used so far by the processes `roots` and every
    /// descendant: the live ones' own time, plus the time of children already reaped
    /// (`cutime`/`cstime`), so a PostgreSQL backend that came and went is counted once.
    static func seconds(of roots: [Int32]) throws -> Double {
        #if os(Linux)
        var parent: [Int32: Int32] = [:]
        var ticks: [Int32: Int] = [:]
        for entry in try FileManager.default.contentsOfDirectory(atPath: "/proc") {
            guard let pid = Int32(entry), let fields = stat(pid) else { continue }
            // After the command's closing parenthesis: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
            guard fields.count > 14, let ppid = Int32(fields[1]) else { continue }
            parent[pid] = ppid
            ticks[pid] = [11, 12, 13, 14].reduce(0) { $0 + (Int(fields[$1]) ?? 0) }
        }
        let wanted = Set(roots)
        for root in roots where ticks[root] == nil { throw BenchError("server process \(root) is not running") }
        func inTree(_ pid: Int32) -> Bool {
            var current: Int32? = pid
            var steps = 0
            while let p = current, steps < 64 {
                if wanted.contains(p) { return true }
                current = parent[p]
                steps += 1
            }
            return false
        }
        let total = ticks.filter { inTree($0.key) }.values.reduce(0, +)
        return Double(total) / Double(sysconf(Int32(_SC_CLK_TCK)))
        #else
        throw BenchError("server CPU time is read from Linux's /proc; the cluster benchmarks run on Linux")
        #endif
    }

    /// The fields of `/proc/PID/stat` after the command name, or nil when the process is gone.
    private static func stat(_ pid: Int32) -> [Substring]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }
}
