import Logging
import OfflineStore

/// A swift-log handler that keeps every message and its metadata, so a test can search
/// what a store logged at every level.
struct CapturingLogHandler: LogHandler {
    /// Everything logged through handlers sharing this box.
    final class Box: Sendable {
        let lines = Locked<[String]>([])
        var text: String { lines.withLock { $0.joined(separator: "\n") } }
    }

    let box: Box
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
        box.lines.withLock { $0.append("\(event.level) \(event.message) \(all)") }
    }

    /// A logger at trace level writing into `box`.
    static func logger(into box: Box) -> Logger {
        var logger = Logger(label: "OfflineStore.capture") { _ in CapturingLogHandler(box: box) }
        logger.logLevel = .trace
        return logger
    }
}
