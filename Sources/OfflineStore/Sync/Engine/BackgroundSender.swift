/// The store's one background sender (Docs/Policies.md, "Write modes"): an immediate-mode
/// edit commits, signals it and returns; the sender runs passes (each one flush of the whole
/// queue, ``SyncEngine/sendInBackground()``) one at a time, and signals that arrive during a
/// pass fold into one more pass after it (``SenderState``). ``close()`` cancels the running
/// pass and starts none again.
///
/// A pass reports like any flush: its events, the objects' sync status, the counts of later
/// reports. It never throws to the edit that signalled it.
final class BackgroundSender: Sendable {
    private struct Inner {
        var state = SenderState.idle
        var task: Task<Void, Never>?
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let inner = Locked(Inner())

    /// An edit committed that should be sent: starts passes of `pass` (the sync engine's
    /// flush, held weakly), or asks for one more after the running one.
    func signal(_ pass: @escaping @Sendable () async -> Void) {
        inner.withLock { inner in
            let (state, action) = inner.state.next(on: .signal)
            inner.state = state
            if action == .startPass { inner.task = Task.detached { await self.runPasses(pass) } }
        }
    }

    /// Stops the sender: the running pass is cancelled, and no pass starts again.
    func close() {
        let running = inner.withLock { inner -> Task<Void, Never>? in
            let (state, action) = inner.state.next(on: .close)
            inner.state = state
            return action == .cancelPass ? inner.task : nil
        }
        running?.cancel()
    }

    /// Whether a pass runs now (or is about to start).
    var isSending: Bool { inner.withLock { $0.task != nil } }

    /// Returns once no pass runs (at once when none does).
    func stopped() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let running = inner.withLock { inner -> Bool in
                guard inner.task != nil else { return false }
                inner.stopWaiters.append(continuation)
                return true
            }
            if !running { continuation.resume() }
        }
    }

    private func runPasses(_ pass: @Sendable () async -> Void) async {
        while true {
            await pass()
            let waiters = inner.withLock { inner -> [CheckedContinuation<Void, Never>]? in
                let (state, action) = inner.state.next(on: .passEnded)
                inner.state = state
                if action == .startPass { return nil }
                inner.task = nil
                defer { inner.stopWaiters = [] }
                return inner.stopWaiters
            }
            guard let waiters else { continue }
            for waiter in waiters { waiter.resume() }
            return
        }
    }
}
