/// A one-shot signal that a request went out: the first bytes of its body were handed to the
/// connection (on Linux, when libcurl reads them to send; on Apple platforms, once sent).
///
/// The flush starts the next batch's request before it writes the previous batch's answers
/// (``FlushOverlapRule``). That write keeps a core busy, and where cores are few it holds back
/// the networking thread that would write the request, so the server waits for the store after
/// all. The engine therefore waits for this signal before it writes. It reaches the transport as
/// a task-local (``current``), so no backend or transport signature carries it:
/// ``URLSessionTransport`` fires it from `urlSession(_:task:didSendBodyData:…)` for a request
/// with a body and as soon as it starts one without. The engine fires it itself when the
/// request ends, and when it has waited long enough
/// (`ObjectStore.Configuration.requestWrittenPatience`), so a wait is short whatever the
/// transport does: once fired, the signal means "stop waiting", not always "went out".
final class RequestWritten: Sendable {
    /// The signal of the request the current task is about to send, if someone waits for it.
    @TaskLocal static var current: RequestWritten?

    private let state = Locked<State>(.waiting([], watchers: []))

    private enum State {
        /// Not fired: the tasks waiting for it, and those waiting for a first one to wait.
        case waiting([CheckedContinuation<Void, Never>], watchers: [CheckedContinuation<Void, Never>])
        case fired
    }

    /// Fires the signal; later calls do nothing.
    func fire() {
        let resumed = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard case .waiting(let waiting, let watchers) = state else { return [] }
            state = .fired
            return waiting + watchers
        }
        for continuation in resumed { continuation.resume() }
    }

    /// Whether the signal fired.
    var hasFired: Bool {
        state.withLock { if case .fired = $0 { return true } else { return false } }
    }

    /// Returns once the signal fired (at once if it did already).
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (fired, watchers) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                guard case .waiting(let waiting, let watchers) = state else { return (true, []) }
                state = .waiting(waiting + [continuation], watchers: [])
                return (false, watchers)
            }
            for watcher in watchers { watcher.resume() }
            if fired { continuation.resume() }
        }
    }

    /// Returns once a task waits for the signal, or it fired: whoever sends the request (a
    /// test standing in for the transport) can act while the flush is held on it.
    func untilAwaited() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard case .waiting(let waiting, let watchers) = state, waiting.isEmpty else { return true }
                state = .waiting(waiting, watchers: watchers + [continuation])
                return false
            }
            if now { continuation.resume() }
        }
    }
}
