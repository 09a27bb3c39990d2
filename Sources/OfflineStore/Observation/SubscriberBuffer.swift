import Foundation

/// One subscriber's queue of values between a ``Broadcaster`` and the `AsyncStream` a
/// consumer iterates: unbounded, in order, one consumer.
///
/// Only the stream holds it strongly (its `unfolding` closure); the broadcaster holds it
/// weakly. So when the consumer stops iterating and drops the stream — a `break`, a
/// `return`, a thrown error — the buffer goes and ``onRelease`` removes the subscription at
/// once. (An `AsyncStream` fed through a continuation the broadcaster keeps would never
/// learn that: its termination handler only runs on cancellation or `finish()`.) A
/// cancelled consumer ends the stream too.
final class SubscriberBuffer<Element: Sendable>: Sendable {
    private struct State {
        var values: [Element] = []
        var head = 0
        var waiter: CheckedContinuation<Element?, Never>?
        var finished = false

        /// The oldest value, if any; compacts the array once half of it was read.
        mutating func pop() -> Element? {
            guard head < values.count else { return nil }
            let value = values[head]
            head += 1
            if head == values.count {
                values.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= values.count {
                values.removeFirst(head)
                head = 0
            }
            return value
        }
    }

    private let state = Locked(State())
    private let onRelease: @Sendable () -> Void

    /// A buffer that calls `onRelease` when it goes.
    init(onRelease: @escaping @Sendable () -> Void) {
        self.onRelease = onRelease
    }

    deinit { onRelease() }

    /// Hands `value` to the waiting consumer, or queues it; dropped once finished.
    func yield(_ value: Element) {
        let waiter = state.withLock { s -> CheckedContinuation<Element?, Never>? in
            guard !s.finished else { return nil }
            if let waiter = s.waiter {
                s.waiter = nil
                return waiter
            }
            s.values.append(value)
            return nil
        }
        waiter?.resume(returning: value)
    }

    /// Ends the stream after the values already queued.
    func finish() {
        let waiter = state.withLock { s -> CheckedContinuation<Element?, Never>? in
            s.finished = true
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The next value, waiting for one; nil once finished and drained, or when the
    /// consuming task is cancelled.
    func next() async -> Element? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
                let ready = state.withLock { s -> Element?? in
                    if let value = s.pop() { return .some(value) }
                    if s.finished || Task.isCancelled { return .some(nil) }
                    s.waiter = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            finish()
        }
    }

    /// A stream that reads this buffer and is its only owner.
    func stream() -> AsyncStream<Element> {
        AsyncStream(unfolding: { [self] in await next() })
    }
}
