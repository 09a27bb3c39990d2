/// Whether a flush may send its next batch while it writes the answers of the batch
/// before (pure, no I/O).
///
/// The server has applied the batch before the next is sent either way: only the store's
/// writing of the answers overlaps the next request, so the service waits for one fewer
/// transaction per batch. The next batch is chosen from the queue before those answers are
/// written, so it must not depend on them:
/// - every answer is a plain success (``PushOutcomeRule/applied(record:version:)``): a
///   conflict, a rejection or a retry may call the app's handlers, requeue entries or stop the
///   run, and the next batch waits for that;
/// - the server does not assign the collection's ids: a create's answer would re-key the
///   object and the references to it in queued entries.
///
/// The engine adds what only it can check: the next batch skips the entries on the wire (and
/// so every later entry of their objects, ``FlushPlan``), holds back entries that reference
/// their creates (``AssociationHolds``), and is a send the run may make now (no collection to
/// prepare or refresh first, no cancellation, suspension or budget stop).
enum FlushOverlapRule {
    /// Whether the next batch may go out before `answers` are written.
    static func mayOverlap(_ answers: [PushOutcomeRule], serverAssignsIDs: Bool) -> Bool {
        guard !serverAssignsIDs, !answers.isEmpty else { return false }
        return answers.allSatisfy { answer in
            if case .applied = answer { true } else { false }
        }
    }
}
