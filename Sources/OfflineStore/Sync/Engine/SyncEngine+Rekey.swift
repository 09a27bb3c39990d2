import Foundation
import GRDB

extension SyncEngine {
    /// Moves an object created under a temporary id to the id the server assigned, when a
    /// create's answer names another id; runs inside the caller's transaction, so the move,
    /// the rewritten references and the applied answer commit together or not at all.
    ///
    /// Rewritten: the object's row and the `id` in its copies; its queue entries (and their
    /// stored payloads); every association field (``BackendTraits/associations``) of other
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
        guard backend.traits(of: collection).assignsIDs else {
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
        try ObjectKeyedTables.renameObject(db, collection: collection, from: oldID, to: newID)
        row.id = newID
        Rekey.replace(field: "id", oldID, with: newID, inCopiesOf: &row)
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
        try LateDeliveryTable.moveObject(collection: collection, from: oldID, to: newID, in: db)
        try Rekey.rewritePayloads(db, collection: collection, objectID: newID, field: "id", from: oldID, to: newID)
        try ObjectKeyedTables.moveUsageAndBlobs(db, collection: collection, from: oldID, to: newID, replacingTarget: replacingTarget)
        for (referencing, field) in referencingFields(of: collection) {
            try Rekey.rewriteReferences(db, collection: referencing, field: field, from: oldID, to: newID)
        }
        try ObjectKeyedTables.recordAlias(db, collection: collection, temporaryID: oldID, serverID: newID)
    }

    /// Every (collection, field) whose association points at `target`, over the registered collections.
    func referencingFields(of target: String) -> [(collection: String, field: String)] {
        collections.names.flatMap { name in
            backend.traits(of: name).associations.filter { $0.value == target }.keys.sorted().map { (name, $0) }
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

    /// Sets `field` to `new` in each copy of the row (local, base, persistent) that holds `old`;
    /// returns whether any copy changed.
    @discardableResult
    static func replace(field: String, _ old: String, with new: String, inCopiesOf row: inout ObjectRow) -> Bool {
        let before = (row.local, row.base, row.persistent)
        row.local = row.local.map { replacing(field: field, old, with: new, in: $0) }
        row.base = row.base.map { replacing(field: field, old, with: new, in: $0) }
        row.persistent = row.persistent.map { replacing(field: field, old, with: new, in: $0) }
        return (row.local, row.base, row.persistent) != before
    }

    /// Points `field` of every object of `collection` that holds `old` at `new`: all copies and queued payloads.
    static func rewriteReferences(_ db: Database, collection: String, field: String, from old: String, to new: String) throws {
        // The temporary id is a UUID: a substring test finds the candidates, the JSON check decides.
        for var row in try ObjectKeyedTables.objects(db, in: collection, containing: old) {
            guard replace(field: field, old, with: new, inCopiesOf: &row) else { continue }
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

extension SyncEngine {
    /// Folds an object created under a temporary id into the row a refresh pulled under the
    /// server's id, when that row was edited here before the create's answer arrived (the
    /// answer was lost, a refresh brought the record in, and the app edited that copy).
    /// Both rows are the same server record; runs inside the caller's transaction.
    ///
    /// Nothing acknowledged is lost:
    /// - the pulled row keeps its server copy and version: its pending edits are based on them;
    /// - edits made to the temporary object that the server's record does not hold (made
    ///   after the first send: a replayed create answers with the first one) are merged field
    ///   by field into the pulled row's local copy (base: the server's record); a field both
    ///   rows changed takes the value of the row edited last (the higher queue sequence), and
    ///   a deletion on the row edited last deletes;
    /// - the temporary object's queued edits become one pending entry of the server id;
    /// - references, the id alias, usage and blob rows follow as in a plain re-key (a blob
    ///   field the pulled row has its own row for keeps that row).
    func mergeCreate(_ sent: SentEntry, answer: JSONValue?, temporary row: ObjectRow, into pulled: ObjectRow,
                     in db: Database) throws {
        let entry = sent.entry, collection = entry.collection, oldID = entry.objectID, newID = pulled.id
        try QueueTable.remove(db, seq: entry.seq)
        let later = try QueueTable.entries(db, collection: collection, id: oldID)
        let temporary = row.effective.map { Rekey.replacing(field: "id", oldID, with: newID, in: $0) }
        if !later.isEmpty || !Self.record(answer, holds: temporary) {
            let ownEntries = try QueueTable.entries(db, collection: collection, id: newID)
            let temporaryIsLater = (later.map(\.seq).max() ?? entry.seq) > (ownEntries.map(\.seq).max() ?? 0)
            // The base is the server's record, restricted to the fields the client sends.
            let sentKeys = Set((temporary?.objectValue ?? [:]).keys).union((sent.operation.data?.objectValue ?? [:]).keys)
            let base = answer?.objectValue.map { JSONValue.object($0.filter { sentKeys.contains($0.key) }) }
            var target = pulled
            let merged = Self.mergedCopy(base: base, temporary: temporary, pulled: pulled.effective,
                                         temporaryIsLater: temporaryIsLater)
            target.beginLocalEdit()
            target.local = merged
            target.deriveState()
            try target.save(db)
            for stale in later where stale.state != .inFlight { try QueueTable.remove(db, seq: stale.seq) }
            let kind: QueueEntry.Kind = merged == nil ? .delete : .update
            if let pending = ownEntries.last(where: { $0.state != .inFlight }) {
                try QueueTable.setKind(db, seq: pending.seq, kind: kind)
            } else {
                try QueueTable.append(db, collection: collection, id: newID, kind: kind,
                                      baseVersion: target.baseVersion, now: configuration.now())
            }
        }
        try row.delete(db)
        try moveKeyedRows(of: collection, from: oldID, to: newID, replacingTarget: false, in: db)
    }

    /// Whether `record` holds every field of `copy` with the same value (pure; nil copy: no).
    static func record(_ record: JSONValue?, holds copy: JSONValue?) -> Bool {
        guard let fields = copy?.objectValue else { return false }
        let server = record?.objectValue ?? [:]
        return fields.allSatisfy { $0.key == "id" || server[$0.key] == $0.value }
    }

    /// The local copy of a merged create (pure): the row edited last wins a clash.
    static func mergedCopy(base: JSONValue?, temporary: JSONValue?, pulled: JSONValue?,
                           temporaryIsLater: Bool) -> JSONValue? {
        guard let temporary, let pulled else { return temporaryIsLater ? temporary : pulled }
        return temporaryIsLater ? ThreeWayMerge.merge(base: base, preferred: temporary, other: pulled)
            : ThreeWayMerge.merge(base: base, preferred: pulled, other: temporary)
    }
}
