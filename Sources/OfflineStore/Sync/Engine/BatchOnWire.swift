/// A flush batch sent to the server: its entries, marked in flight, and the request
/// awaiting its answer (``SyncEngine`` sends the next batch while it writes one's answers,
/// ``FlushOverlapRule``).
struct BatchOnWire: Sendable {
    /// The batch as it was marked in flight.
    let marked: StagedBatch
    /// The request, shielded from the run's cancellation (``SyncCancellation/shielded(_:)``).
    let answer: Task<[PushOutcome], any Error>
    /// Fired when the request went out, for a backend that reports it (``ReportsRequestWritten``),
    /// or when the flush stopped waiting for that (``wentOut(patience:)``, the push's end).
    let written: RequestWritten?

    var collection: String { marked.collection }
    /// The collection's registration (its conflict policy and model), if it is registered.
    var descriptor: CollectionDescriptor? { marked.descriptor }
    var sent: [SentEntry] { marked.sent }

    /// The queue sequence numbers of the entries on the wire.
    var seqs: Set<Int64> { Set(sent.map(\.entry.seq)) }

    /// Returns once the request went out, for a backend that reports it, or after `patience`,
    /// whichever comes first; never later than the answer. Otherwise it yields once: where the
    /// request's task could not start on the flush's thread (``Task/startedHere(_:)`` before
    /// Apple's 26 systems), that lets it start first even when no other thread of the pool is free.
    func wentOut(patience: Duration) async {
        guard let written else { return await Task.yield() }
        // Fired already (a quick transport): no suspension, so the flush keeps its thread.
        if written.hasFired { return }
        // The deadline counts from now, not from when the timer's task first runs.
        let deadline = ContinuousClock.now.advanced(by: patience)
        let timer = Task {
            // Cancelled once the request went out; a late fire is then a no-op. Fired on
            // time, the signal means "stop waiting", which is all anyone waits on it for.
            try? await ContinuousClock().sleep(until: deadline, tolerance: nil)
            written.fire()
        }
        await written.wait()
        timer.cancel()
    }

    /// The backend's outcomes, one per sent entry, in the collection's current shape.
    func outcomes() async throws -> [PushOutcome] {
        let pushed = try await answer.value
        let outcomes = descriptor.map { IncomingRecords.upgrade(pushed, of: $0) } ?? pushed
        guard outcomes.count == sent.count else {
            throw OfflineStoreError(.badResponse, "the backend answered \(outcomes.count) outcomes for \(sent.count) operations")
        }
        return outcomes
    }
}
