import Foundation
import OfflineStore
import OfflineStorePlatform

/// A live progress line on stderr while a sync step runs, only when stderr is a terminal.
///
/// It follows the store's ``ObjectStore/syncEvents()``: the collection and direction at
/// work with its processed / total counts, everything processed so far in the run, the
/// rate, conflicts and failed entries met, and the time so far. Redrawn when the work moves
/// to another collection or direction, on a conflict or failed entry, and otherwise at most
/// ten times a second.
final class ProgressLine: Sendable {
    private let task: Task<Void, Never>

    private init(task: Task<Void, Never>) { self.task = task }

    /// Starts the line (subscribed before the run starts), or returns nil when stderr is not a terminal.
    static func start(_ label: String, store: ObjectStore) -> ProgressLine? {
        guard StandardStream.error.isTerminal else { return nil }
        let events = store.syncEvents()
        let task = Task {
            let clock = ContinuousClock()
            let start = clock.now
            var drawn = start - .seconds(1)
            var state = State()
            for await event in events {
                if Task.isCancelled || state.isOver { break }
                guard state.take(event) || clock.now - drawn >= .milliseconds(100) else { continue }
                drawn = clock.now
                write("\r\u{1B}[2K" + state.line(label, elapsed: (clock.now - start).seconds))
            }
        }
        return ProgressLine(task: task)
    }

    /// Lets the line catch up with the run's last events (at most a second), then erases it.
    func finish() async {
        let following = task
        let deadline = Task {
            try? await Task.sleep(for: .seconds(1))
            following.cancel()
        }
        await following.value
        deadline.cancel()
        Self.write("\r\u{1B}[2K")
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// What the line shows, folded from the events so far.
    struct State {
        var current: SyncProgress?
        var conflicts = 0
        var failed = 0
        /// The operation of the first `started` event: the run the line follows.
        var run: SyncOperation?
        /// The run has finished or stopped with an error.
        var isOver = false

        /// Folds in one event; true when it is worth a redraw at once.
        mutating func take(_ event: SyncEvent) -> Bool {
            switch event {
            case .started(let operation):
                if run == nil { run = operation }
                return false
            case .finished(let operation, _), .error(let operation, _):
                if operation == run { isOver = true }
                return false
            case .progress(let progress):
                defer { current = progress }
                return current?.collection != progress.collection || current?.direction != progress.direction
            case .conflict: conflicts += 1
            case .failedEntry: failed += 1
            case .refused, .readAccessLost: return false  // printed with the report
            case .lateDeliveryUndone: return false
            }
            return true
        }

        func line(_ label: String, elapsed: Double) -> String {
            var parts = [label + ":"]
            if let current {
                let of = current.total.map { "/\($0)" } ?? ""
                parts.append("\(current.direction.rawValue) \(current.collection) \(current.processed)\(of),")
                parts.append("\(current.cumulative) processed,")
                parts.append(String(format: "%.1f/s,", elapsed > 0 ? Double(current.cumulative) / elapsed : 0))
            }
            if conflicts > 0 { parts.append("\(conflicts) conflicts,") }
            if failed > 0 { parts.append("\(failed) failed,") }
            parts.append(String(format: "%.1fs", elapsed))
            return parts.joined(separator: " ")
        }
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
