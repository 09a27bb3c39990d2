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
    /// - A record settles a sent create or update whose sent payload it equals, apart from
    ///   the fields the server writes itself (`LostAnswerRule`), as the flush does for a
    ///   resent write answered 412 with our own payload.
    ///
    /// Later entries of the object stay queued, rebased on the incoming version.
    func applyAsSentWrite(_ record: JSONValue?, version: String?, row: inout ObjectRow, in db: Database) throws -> Bool {
        guard let first = try QueueTable.entries(db, collection: row.collection, id: row.id).first,
              first.state != .failed else { return false }
        switch first.kind {
        case .delete:
            guard record == nil else { return false }
        case .create, .update:
            guard first.attempts > 0, let text = first.sentData, let record,
                  LostAnswerRule.isSentWrite(record, sent: try JSONValue(parsing: text),
                                          serverManaged: backend.traits(of: row.collection).serverManagedFields) else { return false }
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
        guard backend.traits(of: collection).assignsIDs else { return [] }
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

// MARK: - Late deliveries of our own creates (LateDeliveryRule, Docs/Sync.md "Late deliveries")

extension SyncEngine {
    /// Whether late deliveries are watched for (``ObjectStore/Configuration/lateDeliveryWindow``).
    var watchesLateDeliveries: Bool { configuration.lateDeliveryWindow > .zero }

    /// Watches the creates of a batch whose answer never came (`error`): they may still
    /// reach the server; not when the error says the server never saw them (`offline`).
    func watchLostAnswers(_ sent: [SentEntry], after error: OfflineStoreError, in db: Database) throws {
        guard watchesLateDeliveries, error.code != .offline else { return }
        let creates = sent.compactMap { s -> (collection: String, id: String, payload: String)? in
            guard s.entry.kind == .create, let data = s.operation.data else { return nil }
            return (s.entry.collection, s.entry.objectID, data.serialized())
        }
        guard !creates.isEmpty else { return }
        let now = configuration.now()
        try LateDeliveryTable.watch(creates, at: now, in: db)
        try LateDeliveryTable.prune(now: now, window: configuration.lateDeliveryWindow, in: db)
    }

    /// The creates of a collection watched now (expired ones forgotten); nil when none.
    func watchedCreates(in collection: String, in db: Database) throws -> [WatchedCreate]? {
        guard watchesLateDeliveries, try LateDeliveryTable.isWatching(collection, in: db) else { return nil }
        try LateDeliveryTable.prune(now: configuration.now(), window: configuration.lateDeliveryWindow, in: db)
        let watched = try LateDeliveryTable.watched(in: collection, in: db)
        return watched.isEmpty ? nil : watched
    }

    /// Applies a pulled change that is a late delivery of one of our creates, as
    /// ``LateDeliveryRule`` says; a tombstone of a watched object is noted as its deletion.
    /// Returns true when the change was handled here (nothing else applies it).
    func applyLateDelivery(_ change: RemoteChange, watched: inout [WatchedCreate]?, collection: CollectionDescriptor,
                        report: inout SyncReport, notices: inout AppNotices, in db: Database) throws -> Bool {
        guard var creates = watched else { return false }
        let assignsIDs = backend.traits(of: collection.name).assignsIDs
        let sameID = creates.contains { $0.objectID == change.id }
        guard assignsIDs || sameID else { return false }
        guard let pulled = change.record else {
            guard sameID else { return false }
            try LateDeliveryTable.noteDeletion(collection: collection.name, id: change.id, version: change.version, in: db)
            for index in creates.indices where creates[index].objectID == change.id && !creates[index].deleted {
                creates[index].deleted = true
                creates[index].deletedVersion = change.version
            }
            watched = creates
            return false
        }
        let record = JSONValue.object(try ObjectValidation.members(of: pulled, id: change.id))
        // Without a candidate the object's state cannot matter: the row is read only for one.
        guard LateDeliveryRule.decide(id: change.id, record: record, version: change.version, local: .none,
                                   creates: creates, assignsIDs: assignsIDs) != .notLate else { return false }
        let row = try ObjectRow.fetch(db, collection: collection.name, id: change.id)
        switch LateDeliveryRule.decide(id: change.id, record: record, version: change.version, local: Self.lateDeliveryState(of: row),
                                    creates: creates, assignsIDs: assignsIDs) {
        case .notLate:
            return false
        case .undo:
            try undoLateDelivery(record, version: change.version, id: change.id, over: row, in: collection.name, in: db)
        case .supersede:
            guard var row else { return false }
            row.persistent = record
            row.serverVersion = change.version
            try ConflictWrites.write(.keepLocal, to: row, in: db, now: configuration.now())
        }
        report.pulled += 1
        report.lateDeliveriesUndone += 1
        notices.events.append(.lateDeliveryUndone(LateDelivery(collection: collection.name, id: change.id, record: record,
                                                         version: change.version)))
        return true
    }

    /// A conflict on `row` (its persistent copy and version are the server's) that is no
    /// conflict, settled here without the policy: the object's first entry undoes a late
    /// delivery and someone wrote the record since (their copy stands), or the server's
    /// copy is our own late create under a newer local edit (the edit is resent on it).
    /// Returns false for a true conflict.
    func settleLateDeliveryConflict(_ row: ObjectRow, report: inout SyncReport, notices: inout AppNotices,
                                 in db: Database) throws -> Bool {
        if let first = try QueueTable.entries(db, collection: row.collection, id: row.id).first, first.kind == .delete,
           try LateDeliveryTable.isUndo(seq: first.seq, in: db) {
            try ConflictWrites.write(.keepServer, to: row, in: db, now: configuration.now())
            return true
        }
        guard let server = row.persistent, let version = row.serverVersion,
              let creates = try watchedCreates(in: row.collection, in: db),
              LateDeliveryRule.decide(id: row.id, record: server, version: version, local: .edited, creates: creates,
                                   assignsIDs: backend.traits(of: row.collection).assignsIDs) == .supersede
        else { return false }
        try ConflictWrites.write(.keepLocal, to: row, in: db, now: configuration.now())
        report.lateDeliveriesUndone += 1
        notices.events.append(.lateDeliveryUndone(LateDelivery(collection: row.collection, id: row.id, record: server, version: version)))
        return true
    }

    /// Deletes a late delivery again: the object becomes a local delete on the record's
    /// version, its delete queued and marked as an undo (someone else's newer copy wins it).
    private func undoLateDelivery(_ record: JSONValue, version: String, id: String, over existing: ObjectRow?,
                               in collection: String, in db: Database) throws {
        var row = existing ?? ObjectRow(collection: collection, id: id)
        try QueueTable.removeAll(db, collection: collection, id: id)
        row.persistent = record
        row.serverVersion = version
        row.base = record
        row.baseVersion = version
        row.local = nil
        row.dirty = true
        row.localRev += 1
        row.state = .synced
        row.deriveState()
        try row.save(db)
        let seq = try QueueTable.append(db, collection: collection, id: id, kind: .delete, baseVersion: version,
                                        now: configuration.now())
        try LateDeliveryTable.markUndo(seq: seq, collection: collection, id: id, in: db)
    }

    /// The object's state as ``LateDeliveryRule`` sees it.
    static func lateDeliveryState(of row: ObjectRow?) -> LateDeliveryRule.Local {
        guard let row else { return .none }
        if row.state == .conflicted || row.state == .failed { return .conflictedOrFailed }
        return row.dirty ? .edited : .synced(version: row.serverVersion)
    }
}
