
/// A lock that async tasks wait for without blocking a thread; FIFO.
final class AsyncLock: Sendable {
    private struct State {
        var locked = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Locked(State())

    func lock() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let acquired = state.withLock { s -> Bool in
                if !s.locked { s.locked = true; return true }
                s.waiters.append(continuation)
                return false
            }
            if acquired { continuation.resume() }
        }
    }

    func unlock() {
        let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
            if s.waiters.isEmpty { s.locked = false; return nil }
            return s.waiters.removeFirst()
        }
        next?.resume()
    }

    func withLock<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        await lock()
        defer { unlock() }
        return try await body()
    }
}
