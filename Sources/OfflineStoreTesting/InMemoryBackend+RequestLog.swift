import OfflineStore

extension InMemoryBackend {
    /// One call the in-memory server received.
    public enum Request: Sendable, Hashable {
        /// ``InMemoryBackend/prepare(collection:)``.
        case prepare(collection: String)
        /// ``InMemoryBackend/push(_:collection:)``.
        case push(collection: String, operations: [PushOperation])
        /// ``InMemoryBackend/pull(_:delivering:)``, ``InMemoryBackend/fetch(collection:id:)`` and ``InMemoryBackend/search(collection:query:continuing:)``.
        case pull(collection: String, since: String?, continuing: PullContinuation?)
        /// ``InMemoryBackend/ping()``.
        case ping
    }

    /// Every call received since creation or the last ``reset()``, oldest first (faulted calls included).
    public var requestLog: [Request] {
        state.withLock { $0.log }
    }

    /// The number of push calls received, faulted ones included.
    public var pushCallCount: Int {
        state.withLock { $0.log.count { if case .push = $0 { true } else { false } } }
    }

    /// The number of pull calls received (each page counts), faulted ones included.
    public var pullCallCount: Int {
        state.withLock { $0.log.count { if case .pull = $0 { true } else { false } } }
    }

    /// The number of pushed operations the server handled record by record (each operation of a
    /// batch counts, whatever its outcome); operations of a call stopped by a fault before that
    /// (offline, timeout, an injected status) do not count; `appliedButResponseLost` ones do.
    public var writeCount: Int {
        state.withLock { $0.writeCount }
    }

    /// Forgets the request log and the counters; records and queued faults stay.
    public func reset() {
        state.withLock { s in
            s.log.removeAll()
            s.writeCount = 0
        }
    }
}
