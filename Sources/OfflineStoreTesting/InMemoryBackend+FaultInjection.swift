import OfflineStore

extension InMemoryBackend {
    /// Queues `fault` for the next `times` calls it can hit; faults are played in injection order,
    /// at most one whole-call fault per call.
    public func inject(_ fault: Fault, times: Int = 1) {
        state.withLock { $0.faults.append(fault, times: times) }
    }

    /// Forgets every queued fault.
    public func clearFaults() {
        state.withLock { $0.faults.removeAll() }
    }

    /// How many fault plays are still queued (a fault injected `times: 3` counts 3).
    public var pendingFaultCount: Int {
        state.withLock { $0.faults.count }
    }

    /// How a call goes on once its fault was played.
    enum FaultEffect {
        /// Handle the call normally.
        case proceed
        /// Apply the push, then throw ``InMemoryBackend/responseLost``.
        case proceedThenLoseResponse
        /// Reject every operation of the push with this status and body.
        case reject(status: Int, body: String?)
    }

    /// The error a push throws after its operations were applied but its answer was lost.
    static let responseLost = OfflineStoreError(
        .timeout, "the server applied the request but its answer was lost (injected fault)")

    /// Plays the fault taken for a call: throws, waits on the clock, or says how to go on.
    ///
    /// - Throws: ``OfflineStoreError`` `offline`, `timeout`, `unauthorized` or `server`;
    ///   `CancellationError` when the task is cancelled during a delay.
    func play(_ fault: Fault?, on call: Call) async throws -> FaultEffect {
        guard let fault else { return .proceed }
        switch fault.kind {
        case .offline:
            throw OfflineStoreError(.offline, "the server cannot be reached (injected fault)")
        case .timeout:
            throw OfflineStoreError(.timeout, "the server did not answer in time (injected fault)")
        case .appliedButResponseLost:
            return .proceedThenLoseResponse
        case .delay(let duration):
            try await configuration.clock.sleep(for: duration)
            return .proceed
        case .status(let status, let retryAfter, let body):
            switch status {
            case 401, 403:
                throw OfflineStoreError(status == 401 ? .unauthorized : .forbidden, "the server refused the request (injected fault)",
                                        status: status, body: body)
            case 400...499 where call == .push:
                return .reject(status: status, body: body)
            default:
                throw OfflineStoreError(.server, "the server answered with an error (injected fault)",
                                        status: status, body: body, retryAfter: retryAfter)
            }
        case .rejectOperation, .conflictOnce:
            return .proceed
        }
    }

    /// Plays the first operation fault queued for `operation`, if any; returns its rejection, if it is one.
    static func playOperationFault(for operation: PushOperation, in state: inout ServerState,
                                   collection: String, now: Int64) -> PushOutcome? {
        guard let fault = state.faults.takeOperationFault(id: operation.id) else { return nil }
        switch fault.kind {
        case .rejectOperation(_, let status, let body):
            return .rejected(status: status, body: body)
        case .conflictOnce:
            state.modify(collection) { $0.touch(id: operation.id, now: now) }
            return nil
        default:
            return nil
        }
    }
}
