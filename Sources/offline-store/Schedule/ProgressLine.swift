import Foundation
import OfflineStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A live progress line on stderr while a sync step runs, only when stderr is a terminal.
///
/// The library reports counts only at the end of a run, so the line samples the store
/// (a WAL reader, concurrent with the sync's writes) a few times a second: entries sent,
/// entries left, objects in the store, the rate of changes and the time so far.
final class ProgressLine: Sendable {
    private let task: Task<Void, Never>

    private init(task: Task<Void, Never>) { self.task = task }

    /// Starts the line, or returns nil when stderr is not a terminal.
    static func start(_ label: String, store: ObjectStore) -> ProgressLine? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        let task = Task {
            let clock = ContinuousClock()
            let start = clock.now
            let initial = Sample(store)
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(200))
                if Task.isCancelled { break }
                let now = Sample(store)
                let elapsed = (clock.now - start).seconds
                let sent = max(0, initial.queued - now.queued)
                let changes = sent + abs(now.objects - initial.objects)
                let rate = elapsed > 0 ? Double(changes) / elapsed : 0
                write("\r\u{1B}[2K\(label): sent \(sent), queued \(now.queued), objects \(now.objects), "
                    + String(format: "%.1f changes/s, %.1fs", rate, elapsed))
            }
        }
        return ProgressLine(task: task)
    }

    /// Stops sampling and erases the line.
    func finish() async {
        task.cancel()
        await task.value
        Self.write("\r\u{1B}[2K")
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// The counts the line shows, read from the store (zero when a read fails).
    private struct Sample {
        var queued = 0
        var objects = 0

        init(_ store: ObjectStore) {
            queued = (try? store.queueCount()) ?? 0
            objects = store.collections().reduce(0) { $0 + ((try? store.collection($1.name).count()) ?? 0) }
        }
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
