import Foundation
import GRDB

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
