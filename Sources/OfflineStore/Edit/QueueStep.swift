import Foundation
import GRDB

/// What an edit will do to the queue, decided before anything is written: coalescing
/// (``Coalescing``) against the object's last entry, then the write of that decision.
enum QueueStep {
    /// A new entry at the end of the queue.
    case append
    /// The object's last pending entry absorbs the edit and becomes of this kind.
    case merge(seq: Int64, from: QueueEntry.Kind, into: QueueEntry.Kind)
    /// A pending create met a delete: the entry goes, and nothing is left to send.
    case cancel(seq: Int64)

    /// Whether the edit cancels the object's pending create.
    var cancels: Bool { if case .cancel = self { true } else { false } }

    /// Decides how an edit of `collection/id` of `kind` enters the queue, given the object's
    /// last entry (``LocalStore/lastQueueEntry(_:collection:id:)``): coalesced into it when it
    /// is pending and was never sent, else appended. Pure, so an edit's every check is done
    /// before its first write.
    ///
    /// An entry that was sent once (in flight, or back to pending after a lost answer)
    /// may already be applied on the server: it is resent exactly as it was, so the
    /// server's precondition answer can prove it was our own write.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidOperation`` for a pair of kinds that a
    ///   consistent object history cannot produce.
    static func decide(after last: QueueTable.LastEntry?, collection: String, id: String,
                       kind: QueueEntry.Kind) throws -> QueueStep {
        guard let last, last.state == .pending, last.attempts == 0 else { return .append }
        switch Coalescing.combine(pending: last.kind, with: kind) {
        case .merge(let merged)?: return .merge(seq: last.seq, from: last.kind, into: merged)
        case .cancel?: return .cancel(seq: last.seq)
        case nil:
            throw OfflineStoreError(.invalidOperation,
                "cannot queue \(kind.rawValue) after a pending \(last.kind.rawValue) of \(collection)/\(id)")
        }
    }

    /// Writes a ``QueueStep`` for the edit just saved in `row`.
    static func record(_ step: QueueStep, of row: ObjectRow, kind: QueueEntry.Kind, now: Date,
                       in db: Database, local: LocalStore) throws {
        switch step {
        case .append:
            try local.appendQueueEntry(db, collection: row.collection, id: row.id, kind: kind, baseVersion: row.baseVersion,
                                       now: now)
        case .merge(let seq, let from, let merged):
            if merged != from { try QueueTable.setKind(db, seq: seq, kind: merged) }
        case .cancel(let seq):
            try QueueTable.remove(db, seq: seq)
        }
    }
}
