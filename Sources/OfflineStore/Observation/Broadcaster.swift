import Foundation

/// Fans values out to any number of `AsyncStream` subscribers; a subscriber that stops
/// iterating is forgotten. Each subscriber buffers without limit, so counts are exact.
final class Broadcaster<Element: Sendable>: Sendable {
    private let subscribers = Locked<[UUID: AsyncStream<Element>.Continuation]>([:])

    /// Whether anyone is listening.
    var hasSubscribers: Bool { subscribers.withLock { !$0.isEmpty } }

    /// A new stream that receives every value sent from now on.
    func subscribe() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends a value to every subscriber.
    func send(_ value: Element) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(value) }
    }

    /// Ends every stream.
    func finish() {
        for continuation in subscribers.withLock({ s in defer { s.removeAll() }; return Array(s.values) }) {
            continuation.finish()
        }
    }
}
