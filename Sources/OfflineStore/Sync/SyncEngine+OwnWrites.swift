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
