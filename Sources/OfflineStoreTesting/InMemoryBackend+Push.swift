import OfflineStore

extension InMemoryBackend {
    /// Applies operations as a Kinto `/batch` would and answers one outcome per operation, in order.
    ///
    /// A create must not find a live record (a tombstone is fine); an update or delete with a
    /// base version must find that version; a delete of a missing record is applied with no version.
    /// `last_modified` in the data is dropped and `id` is set, as the client must not own them.
    ///
    /// - Throws: ``OfflineStoreError`` `configuration` (status 400) for more than
    ///   ``Configuration/maxBatchSize`` operations; the error of an injected fault.
    public func push(_ operations: [PushOperation], collection: String) async throws -> [PushOutcome] {
        let fault = state.withLock { s in
            s.log.append(.push(collection: collection, operations: operations))
            return s.faults.takeCallFault(for: .push)
        }
        let effect = try await play(fault, on: .push)
        let limit = configuration.maxBatchSize
        guard operations.count <= limit else {
            throw OfflineStoreError(
                .configuration, "batch too large: \(operations.count) operations, the server takes at most \(limit)",
                status: 400, body: KintoConventions.batchTooLargeBody(limit))
        }
        if case .reject(let status, let body) = effect {
            return operations.map { _ in .rejected(status: status, body: body) }
        }
        guard !operations.isEmpty else { return [] }
        if let hook = onPush { await hook(operations) }
        let outcomes = apply(operations, collection: collection, now: nowMilliseconds())
        if case .proceedThenLoseResponse = effect { throw Self.responseLost }
        return outcomes
    }

    /// Applies the operations in one critical section, playing operation faults on the way
    /// (what a push does once its call fault, if any, was played; the simulator's server too).
    func apply(_ operations: [PushOperation], collection: String, now: Int64) -> [PushOutcome] {
        let requiresPrepared = configuration.requiresPreparedCollections
        return state.withLock { s in
            s.writeCount += operations.count
            guard KintoConventions.accepts(id: collection) else {
                return operations.map { _ in .rejected(status: 400, body: KintoConventions.invalidIDBody) }
            }
            if requiresPrepared, s.collections[collection] == nil {
                let body = KintoConventions.missingCollectionBody(collection)
                return operations.map { _ in .rejected(status: 404, body: body) }
            }
            return operations.map { operation in
                if let rejection = Self.playOperationFault(for: operation, in: &s, collection: collection, now: now) {
                    return rejection
                }
                return s.modify(collection) { $0.apply(operation, now: now) }
            }
        }
    }
}
