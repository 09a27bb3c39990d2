import Foundation
import GRDB

extension SyncEngine {
    /// Recognises an incoming change as the answer to the object's first queue entry, and
    /// applies it as that entry's push answer. Returns false (nothing changed) otherwise.
    ///
    /// An answer lost after the server applied a write (kill, timeout, reset, a body that
    /// cannot be read) leaves the entry queued, and the next refresh brings the write back
    /// as a change. Without this, a later local edit of the object met that change as a
    /// conflict although no other client wrote (e.g. delete, answer lost, re-create the id:
    /// our own tombstone conflicted with the new object).
    ///
    /// - A tombstone settles a first entry that is a delete, sent or not: the server's copy
    ///   is gone, whoever deleted it, which is all the delete asked for.
    /// - A record settles a sent create or update whose sent payload it equals, as the
    ///   flush does for a resent write answered 412 with our own payload.
    ///
    /// Later entries of the object stay queued, rebased on the incoming version.
    func applyAsOwnWrite(_ record: JSONValue?, version: String?, row: inout ObjectRow, in db: Database) throws -> Bool {
        guard let first = try QueueTable.entries(db, collection: row.collection, id: row.id).first,
              first.state != .failed else { return false }
        switch first.kind {
        case .delete:
            guard record == nil else { return false }
        case .create, .update:
            guard first.attempts > 0, let text = first.sentData,
                  let record, try JSONValue(parsing: text) == record else { return false }
        }
        let operation = PushOperation(id: row.id, kind: first.kind, data: record, baseVersion: first.baseVersion,
                                      idempotencyKey: first.idempotencyKey)
        // A delete never sent is the object's last edit (a later create would have coalesced with it).
        let sentRev = first.sentRev ?? row.localRev
        // After a delete the object has no server copy, so no server version (as for a DELETE answered 404):
        // a create queued after it stays a create.
        let entry = SentEntry(entry: first, operation: operation, sentRev: sentRev)
        try applied(record: record, version: first.kind == .delete ? nil : version, sent: entry, row: &row, db: db)
        return true
    }
}

/// A create that was sent but whose answer never arrived (a lost answer, a crash), on a
/// backend that assigns ids: what it sent, so a pulled record can be recognised as its result.
struct UnansweredCreate {
    let seq: Int64
    let sent: JSONValue
    let sentRev: Int64

    /// The unanswered creates of a collection whose ids the server assigns (none elsewhere).
    static func all(in collection: String, backend: any Backend, db: Database) throws -> [UnansweredCreate] {
        guard backend.assignsIDs(in: collection) else { return [] }
        return try QueueTable.entries(db, .unansweredCreates(collection: collection)).compactMap { entry in
            guard let text = entry.sentData else { return nil }
            return UnansweredCreate(seq: entry.seq, sent: try JSONValue(parsing: text), sentRev: entry.sentRev ?? 0)
        }
    }
}

extension SyncEngine {
    /// Applies a pulled record of an id this store does not know as the answer to one of our
    /// unanswered creates when it holds every field that create sent: the record is what the
    /// create made (the answer was lost), so the object is re-keyed to it, as the resent
    /// create's answer would do, instead of appearing a second time under the server's id.
    ///
    /// Returns true when the record was taken as that answer (and removes the create from
    /// `unanswered`). Limit: another client's record with the very same fields, created while
    /// our answer was lost, is taken for ours (one record then stands for both).
    func adoptAsCreateAnswer(_ change: RemoteChange, unanswered: inout [UnansweredCreate],
                             collection: CollectionDescriptor, report: inout SyncReport, notices: inout AppNotices,
                             in db: Database) throws -> Bool {
        guard !unanswered.isEmpty, let record = change.record,
              let index = unanswered.firstIndex(where: { Self.record(record, holds: $0.sent) }),
              try ObjectRow.fetch(db, collection: collection.name, id: change.id) == nil else { return false }
        let create = unanswered.remove(at: index)
        guard let entry = try QueueTable.entry(db, seq: create.seq) else { return false }
        var operation = PushOperation(id: entry.objectID, kind: .create, data: create.sent, baseVersion: nil,
                                      idempotencyKey: entry.idempotencyKey)
        operation.isResend = true
        let sent = SentEntry(entry: entry, operation: operation, sentRev: create.sentRev)
        var pushed = SyncReport()
        _ = try applyPushOutcome(.applied(record: record, version: change.version), of: sent,
                                 policy: collection.conflictPolicy, report: &pushed, notices: &notices, in: db)
        report.pulled += 1
        return true
    }
}
