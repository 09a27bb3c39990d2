import Foundation

/// Fans values out to any number of `AsyncStream` subscribers. A subscriber that stops
/// iterating is forgotten at once: its stream owns its ``SubscriberBuffer``, which this holds
/// weakly, so no subscription and no task outlives the consumer's loop. Each subscriber
/// buffers without limit, so counts are exact.
final class Broadcaster<Element: Sendable>: Sendable {
    private struct Subscriber {
        weak var buffer: SubscriberBuffer<Element>?
        let isIncluded: @Sendable (Element) -> Bool
    }

    private let subscribers = Locked<[UUID: Subscriber]>([:])

    /// Whether anyone is listening.
    var hasSubscribers: Bool { subscriberCount > 0 }

    /// How many streams are listening.
    var subscriberCount: Int { subscribers.withLock { s in s.values.count { $0.buffer != nil } } }

    /// A new stream that receives every value sent from now on for which `isIncluded` is true;
    /// `onEnd` runs once the consumer stopped iterating (or the stream was finished and released).
    func subscribe(where isIncluded: @escaping @Sendable (Element) -> Bool = { _ in true },
                   onEnd: (@Sendable () -> Void)? = nil) -> AsyncStream<Element> {
        let id = UUID()
        let buffer = SubscriberBuffer<Element>(onRelease: { [weak self] in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
            onEnd?()
        })
        subscribers.withLock { $0[id] = Subscriber(buffer: buffer, isIncluded: isIncluded) }
        return buffer.stream()
    }

    /// Sends a value to every subscriber that wants it.
    func send(_ value: Element) {
        for (buffer, isIncluded) in live() where isIncluded(value) { buffer.yield(value) }
    }

    /// Ends every stream (after the values already sent).
    func finish() {
        let all = live()
        subscribers.withLock { $0.removeAll() }
        for (buffer, _) in all { buffer.finish() }
    }

    /// The subscribers still listening, held strongly while they are served.
    private func live() -> [(SubscriberBuffer<Element>, @Sendable (Element) -> Bool)] {
        subscribers.withLock { s in s.values.compactMap { sub in sub.buffer.map { ($0, sub.isIncluded) } } }
    }
}
