import Foundation
import GRDB

extension SyncEngine {
    /// Moves an object created under a temporary id to the id the server assigned, when a
    /// create's answer names another id; runs inside the caller's transaction, so the move,
    /// the rewritten references and the applied answer commit together or not at all.
    ///
    /// Rewritten: the object's row and the `id` in its copies; its queue entries (and their
    /// stored payloads); every association field (``Backend/associations(of:)``) of other
    /// objects that holds the temporary id, in all their copies and queued payloads. The
    /// mapping is kept, so ``serverID(for:in:)`` answers the new id for the old one.
    ///
    /// A refresh may have pulled the record already (the create's first answer was lost). An
    /// unedited pulled copy is replaced; an edited one absorbs the temporary object
    /// (``mergeCreate(_:answer:temporary:into:in:)``) and nothing is left to apply.
    ///
    /// - Returns: the sent entry under the server's id (unchanged when nothing moved); nil
    ///   when the create was merged into the pulled copy.
    func rekeyIfServerAssigned(_ record: JSONValue?, sent: SentEntry, row: inout ObjectRow,
                               in db: Database) throws -> SentEntry? {
        let entry = sent.entry
        guard entry.kind == .create, let newID = record?["id"]?.stringValue, newID != entry.objectID else { return sent }
        let collection = entry.collection
        guard backend.assignsIDs(in: collection) else {
            // The client owns ids here: an answer naming another object must not move ours.
            throw OfflineStoreError(.badResponse,
                                    "the server answered the create of \(collection)/\(entry.objectID) with another id; the entry stays queued")
        }
        let oldID = entry.objectID
        if let existing = try ObjectRow.fetch(db, collection: collection, id: newID) {
            // Pulled between the POST and its answer: the same server record.
            let queued = try QueueTable.latest(db, collection: collection, id: newID) != nil
            if existing.dirty || queued {
                try mergeCreate(sent, answer: record, temporary: row, into: existing, in: db)
                return nil
            }
            try existing.delete(db)
        }
        try KeyedRows.renameObject(db, collection: collection, from: oldID, to: newID)
        row.id = newID
        row.local = row.local.map { Rekey.replacing(field: "id", oldID, with: newID, in: $0) }
        row.base = row.base.map { Rekey.replacing(field: "id", oldID, with: newID, in: $0) }
        row.persistent = row.persistent.map { Rekey.replacing(field: "id", oldID, with: newID, in: $0) }
        try row.save(db)
        try moveKeyedRows(of: collection, from: oldID, to: newID, replacingTarget: true, in: db)
        let moved = QueueEntry(
            seq: entry.seq, collection: collection, objectID: newID, kind: entry.kind, baseVersion: entry.baseVersion,
            idempotencyKey: entry.idempotencyKey, attempts: entry.attempts, lastError: entry.lastError,
            status: entry.status, responseBody: entry.responseBody, state: entry.state, createdAt: entry.createdAt,
            notBefore: entry.notBefore, sentRev: entry.sentRev, sentData: entry.sentData)
        var operation = sent.operation
        operation.id = newID
        return SentEntry(entry: moved, operation: operation, sentRev: sent.sentRev)
    }

    /// Points everything else keyed by an object id from `oldID` to `newID`: queue entries
    /// (and the `id` in their stored payloads), usage/pinning and blob rows, association
    /// fields of other objects, and the id alias. `replacingTarget`: rows the target id
    /// already has (a pulled copy being replaced) give way; otherwise they stay and the
    /// moved object's rows they clash with are dropped.
    func moveKeyedRows(of collection: String, from oldID: String, to newID: String, replacingTarget: Bool,
                       in db: Database) throws {
        try QueueTable.moveObject(db, collection: collection, from: oldID, to: newID)
        try Rekey.rewritePayloads(db, collection: collection, objectID: newID, field: "id", from: oldID, to: newID)
        try KeyedRows.moveUsageAndBlobs(db, collection: collection, from: oldID, to: newID, replacingTarget: replacingTarget)
        for (referencing, field) in referencingFields(of: collection) {
            try Rekey.rewriteReferences(db, collection: referencing, field: field, from: oldID, to: newID)
        }
        try KeyedRows.recordAlias(db, collection: collection, temporaryID: oldID, serverID: newID)
    }

    /// Every (collection, field) whose association points at `target`, over the registered collections.
    func referencingFields(of target: String) -> [(collection: String, field: String)] {
        collections.names.flatMap { name in
            backend.associations(of: name).filter { $0.value == target }.keys.sorted().map { (name, $0) }
        }
    }
}

/// The rewriting steps of a re-key, inside the caller's transaction.
enum Rekey {
    /// The object with `field` set to `new` when it holds `old`; anything else unchanged.
    static func replacing(field: String, _ old: String, with new: String, in value: JSONValue) -> JSONValue {
        guard case .object(var members) = value, members[field] == .string(old) else { return value }
        members[field] = .string(new)
        return .object(members)
    }

    /// Points `field` of every object of `collection` that holds `old` at `new`: all copies and queued payloads.
    static func rewriteReferences(_ db: Database, collection: String, field: String, from old: String, to new: String) throws {
        // The temporary id is a UUID: a substring test finds the candidates, the JSON check decides.
        for var row in try KeyedRows.objects(db, in: collection, containing: old) {
            let before = (row.local, row.base, row.persistent)
            row.local = row.local.map { replacing(field: field, old, with: new, in: $0) }
            row.base = row.base.map { replacing(field: field, old, with: new, in: $0) }
            row.persistent = row.persistent.map { replacing(field: field, old, with: new, in: $0) }
            guard (row.local, row.base, row.persistent) != before else { continue }
            try row.save(db)
            try rewritePayloads(db, collection: collection, objectID: row.id, field: field, from: old, to: new)
        }
    }

    /// Rewrites `field` in the stored payloads (`sent_data`) of an object's queue entries.
    static func rewritePayloads(_ db: Database, collection: String, objectID: String, field: String,
                                from old: String, to new: String) throws {
        for entry in try QueueTable.entries(db, collection: collection, id: objectID) {
            guard let text = entry.sentData else { continue }
            let value = try JSONValue(parsing: text)
            let rewritten = replacing(field: field, old, with: new, in: value)
            guard rewritten != value else { continue }
            try QueueTable.setSentData(db, seq: entry.seq, text: rewritten.serialized())
        }
    }
}
