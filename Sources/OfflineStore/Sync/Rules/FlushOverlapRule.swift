/// Whether a flush may send its next batch while it writes the answers of the batch
/// before (pure, no I/O).
///
/// The server has applied the batch before the next is sent either way: only the store's
/// writing of the answers overlaps the next request, so the service waits for one fewer
/// transaction per batch. The next batch is chosen from the queue before those answers are
/// written, so it must be the batch the flush would choose after them, and must not depend
/// on them:
/// - every answer is a plain success (``PushOutcomeRule/applied(record:version:)``), a
///   create's naming the id that was sent: a conflict, a rejection or a retry may call the
///   app's handlers, requeue entries or stop the run, and a create answered with another id
///   re-keys the object and the references to it in queued entries (where the server assigns
///   ids) or cannot be written (where the client does); the next batch waits for those;
/// - the next batch is chosen with the entries on the wire taken out of the queue, as their
///   answers will take them out (so the order is the one the flush keeps without overlap), and
///   holds no entry of an object on the wire: such an entry is sent on the version its answer
///   brings (``follows(_:onWire:)``).
///
/// The engine adds what only it can check: the next step is a send the run may make now (no
/// collection to prepare or refresh first, no cancellation, suspension or budget stop).
enum FlushOverlapRule {
    /// Whether the next batch may go out before `answers` to `sent` (in order) are written.
    static func mayOverlap(_ answers: [PushOutcomeRule], sent: [PushOperation]) -> Bool {
        guard !answers.isEmpty, answers.count == sent.count else { return false }
        return zip(answers, sent).allSatisfy { answer, operation in
            guard case .applied(let record, _) = answer else { return false }
            guard operation.kind == .create, let id = record?["id"]?.stringValue else { return true }
            return id == operation.id
        }
    }

    /// Whether `next` may be marked in flight while `onWire` is on the wire, to go out the
    /// moment its answers allow (``StagedBatch``); `traits` gives each collection's
    /// ``BackendTraits``. Not when the batch on the wire holds a create that the server gives
    /// its own id: that answer forbids the overlap, and the staged batch would only be
    /// withdrawn. Nor when `next` holds a create of a collection where a create that may have
    /// been sent is costly to resend (the server assigns ids, or the flush refreshes before
    /// resending creates): a process killed while a batch is staged leaves it as one that may
    /// have been sent, and a create there is marked only when it goes out.
    static func mayStage(_ next: [QueueEntry], onWire: [QueueEntry], traits: (String) -> BackendTraits) -> Bool {
        guard let collection = next.first?.collection, mayStage(behind: onWire, traits: traits) else { return false }
        let nextTraits = traits(collection)
        return !((nextTraits.assignsIDs || nextTraits.refreshesBeforeResendingCreates) && next.contains { $0.kind == .create })
    }

    /// The part of ``mayStage(_:onWire:traits:)`` that depends only on the batch on the wire, so
    /// the engine need not read the queue for a batch it would not stage: false when it holds a
    /// create that the server gives its own id.
    static func mayStage(behind onWire: [QueueEntry], traits: (String) -> BackendTraits) -> Bool {
        guard let collection = onWire.first?.collection, traits(collection).assignsIDs else { return true }
        return !onWire.contains { $0.kind == .create }
    }

    /// Whether `next`, chosen with the entries `onWire` taken out of the queue, may follow them
    /// before their answers are written: none of its entries is of an object on the wire.
    static func follows(_ next: [QueueEntry], onWire: [QueueEntry]) -> Bool {
        let objects = Set(onWire.map { ObjectKey(collection: $0.collection, id: $0.objectID) })
        return !next.contains { objects.contains(ObjectKey(collection: $0.collection, id: $0.objectID)) }
    }
}
