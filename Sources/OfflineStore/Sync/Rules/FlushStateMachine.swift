/// The bookkeeping of one flush run as a state machine (pure, no I/O): the flush loop
/// feeds it what happened and does what it answers.
///
/// It holds what the run has learnt — the backend's batch limit, the collections already
/// prepared, how often each entry was sent — and decides the next step: ask the backend
/// for its limits, prepare a collection, send a batch, or move on to the blob uploads.
/// An entry sent ``maximumSends`` times in one run (conflict resends) is not sent again
/// until the next run.
struct FlushStateMachine: Sendable, Equatable {
    /// What the flush loop does next.
    enum Action: Equatable, Sendable {
        /// Ask the backend for its batch limit, then read the batch again.
        case askCapabilities
        /// Prepare the collection on the backend (create it, read its settings), once per run.
        case prepare(collection: String)
        /// Mark the batch in flight and send it.
        case send([QueueEntry])
        /// Nothing is left to send: upload pending blobs and finish.
        case uploadBlobs
    }

    /// The most times one entry is sent in one run.
    static let maximumSends = 3

    /// The backend's batch limit, once asked (1 until then: the first read only needs to know if anything is due).
    private(set) var maxBatch: Int?
    private(set) var prepared: Set<String> = []
    private(set) var sends: [Int64: Int] = [:]
    /// Entries sent ``maximumSends`` times in this run.
    private(set) var exhausted: Set<Int64> = []

    /// How many entries the next read of the queue may return.
    var batchLimit: Int { maxBatch ?? 1 }

    /// The step for the batch just read from the queue.
    func next(for batch: [QueueEntry]) -> Action {
        guard let collection = batch.first?.collection else { return .uploadBlobs }
        if maxBatch == nil { return .askCapabilities }
        if !prepared.contains(collection) { return .prepare(collection: collection) }
        return .send(batch)
    }

    /// The backend answered its batch limit (at least 1).
    mutating func learnedBatchLimit(_ limit: Int) {
        maxBatch = max(1, limit)
    }

    /// The collection was prepared on the backend.
    mutating func didPrepare(_ collection: String) {
        prepared.insert(collection)
    }

    /// Collections the server refused in this run (their preparation met a 403): skipped.
    private(set) var refused: Set<String> = []

    /// The server refused the collection: its entries wait for the next run.
    mutating func didRefuse(_ collection: String) {
        refused.insert(collection)
    }

    /// Collections refreshed in this run before a create whose answer was lost was resent
    /// (``LostAnswerRule``): each at most once per run.
    private(set) var refreshedFirst: Set<String> = []

    /// The collection was refreshed before its batch was sent.
    mutating func didRefreshFirst(_ collection: String) {
        refreshedFirst.insert(collection)
    }

    /// The entries were marked in flight and are being sent.
    mutating func didSend(_ seqs: [Int64]) {
        for seq in seqs {
            sends[seq, default: 0] += 1
            if sends[seq] == Self.maximumSends { exhausted.insert(seq) }
        }
    }
}
