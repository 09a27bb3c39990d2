import OfflineStore

/// One write the simulated server applied, and which client sent it when.
struct ServerWrite: Sendable {
    /// The object id.
    let id: String
    /// What the operation was.
    let kind: QueueEntry.Kind
    /// The record written; nil for a deletion.
    let data: JSONValue?
    /// The version the server gave it; nil for a delete of a record that was already gone
    /// (Kinto answers 404, which the store takes as done).
    let version: Int64?
    /// The client (0-based) and process that sent it.
    let client: Int
    let incarnation: Int
    /// The network call that carried it.
    let call: Int
    /// When the client sent it, and when the server applied it (simulated milliseconds).
    let sentAt: Int64
    let appliedAt: Int64
    /// Whether the client had stopped waiting for it (timed out, or killed) when it arrived.
    let isLate: Bool

    /// Whether this write left a live record.
    var isLive: Bool { data != nil }
}

/// The server every simulated client talks to: an ``InMemoryBackend`` (Kinto's rules) that
/// answers requests the network delivers, and the history of every write it applied.
///
/// Used from the driving thread only.
final class SimulatedServer: @unchecked Sendable {
    // @unchecked: `history` is only touched by the simulation's driving thread.
    let backend: InMemoryBackend
    private(set) var history: [ServerWrite] = []

    init(backend: InMemoryBackend) { self.backend = backend }

    /// Handles a delivered request as Kinto would and records the writes it applied.
    func handle(_ call: SimulatedCall, late: Bool) -> SimulatedAnswer {
        switch call.request {
        case .pull(let collection, let since, let continuing, let listing):
            do { return .page(try backend.page(collection: collection, since: since, continuing: continuing, listing: listing)) } catch {
                return .failed(error as? OfflineStoreError ?? OfflineStoreError(.server, "\(error)"))
            }
        case .push(let collection, let operations):
            let limit = backend.configuration.maxBatchSize
            guard operations.count <= limit else {
                return .failed(OfflineStoreError(.configuration, "batch too large: \(operations.count) operations", status: 400))
            }
            let now = backend.nowMilliseconds()
            let outcomes = backend.apply(operations, collection: collection, now: now)
            for (operation, outcome) in zip(operations, outcomes) {
                guard case .applied(let record, let version) = outcome else { continue }
                history.append(ServerWrite(
                    id: operation.id, kind: operation.kind, data: operation.kind == .delete ? nil : record,
                    version: version.flatMap { Int64($0) }, client: call.client, incarnation: call.incarnation,
                    call: call.id, sentAt: call.sentAt, appliedAt: now, isLate: late))
            }
            return .pushed(outcomes)
        }
    }

    /// Another writer's batch, straight on the server (no network, no preconditions): each
    /// operation a put or (no data) a delete, applied at once and in order, as one Kinto batch;
    /// a put with a `stamp` carries that `last_modified` (a collider, which Kinto keeps when it is
    /// in the past). Recorded as client `writer` (no store). Returns each outcome.
    func write(_ operations: [(id: String, data: JSONValue?, stamp: Int64?)], collection: String, writer: Int,
               now: Int64) -> [PushOutcome] {
        operations.map { operation in
            let outcome: PushOutcome
            if let stamp = operation.stamp, let data = operation.data?.objectValue {
                let version = backend.state.withLock { s in
                    s.modify(collection) { $0.write(id: operation.id, data: data, sentVersion: stamp) }
                }
                outcome = .applied(record: backend.serverRecord(collection: collection, id: operation.id)?.record,
                                   version: String(version))
            } else {
                let push = PushOperation(id: operation.id, kind: operation.data == nil ? .delete : .update, data: operation.data,
                                         baseVersion: nil, idempotencyKey: "writer")
                outcome = backend.apply([push], collection: collection, now: now)[0]
            }
            if case .applied(let record, let version) = outcome, version != nil {
                history.append(ServerWrite(
                    id: operation.id, kind: operation.data == nil ? .delete : .update, data: operation.data == nil ? nil : record,
                    version: version.flatMap { Int64($0) }, client: writer, incarnation: 0,
                    call: 0, sentAt: now, appliedAt: now, isLate: false))
            }
            return outcome
        }
    }

    /// The writes of one object, in the order the server applied them.
    func writes(of id: String) -> [ServerWrite] { history.filter { $0.id == id } }
}
