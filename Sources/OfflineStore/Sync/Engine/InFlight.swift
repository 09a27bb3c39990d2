import Foundation
import GRDB

/// An entry marked in flight, with the operation sent and the object revision it carries.
struct SentEntry: Sendable {
    let entry: QueueEntry
    let operation: PushOperation
    let sentRev: Int64
}

/// Marking entries in flight with the operation each sends.
enum InFlight {
    /// Marks the batch in flight, building each operation as ``SendPayloadRule`` decides; an
    /// entry the rule finds superseded by a later delete leaves the queue and is not returned
    /// (with its object and the delete, for a create the server never had). `watchesLateDeliveries`:
    /// such a create is noted as deleted, so a late delivery of an earlier send is undone.
    static func mark(_ batch: [QueueEntry], watchesLateDeliveries: Bool, in db: Database) throws -> [SentEntry] {
        try batch.compactMap { entry in
            guard let row = try ObjectRow.fetch(db, collection: entry.collection, id: entry.objectID) else {
                throw OfflineStoreError(.corrupted, "queue entry \(entry.seq) has no object \(entry.collection)/\(entry.objectID)")
            }
            let sentData = try entry.sentData.map { try JSONValue(parsing: $0) }
            let decision = try SendPayloadRule.decide(
                seq: entry.seq, kind: entry.kind, attempts: entry.attempts, sentData: sentData, local: row.local,
                onServer: row.persistent != nil || row.serverVersion != nil,
                deleteQueuedBehind: try row.dirty && QueueTable.entries(db, collection: entry.collection, id: entry.objectID)
                    .contains { $0.seq > entry.seq && $0.kind == .delete })
            let data: JSONValue?
            switch decision {
            case .send(let payload):
                data = payload
            case .supersededByDelete:
                try QueueTable.remove(db, seq: entry.seq)
                return nil
            case .cancelledByDelete:
                try FailedEntryWrites.rollBack(db, collection: entry.collection, id: entry.objectID)   // as `discard` does
                if watchesLateDeliveries { try LateDeliveryTable.noteDeletion(collection: entry.collection, id: entry.objectID, version: nil, in: db) }
                return nil
            }
            let resent = entry.attempts > 0 && sentData != nil
            let sentRev = resent ? (entry.sentRev ?? row.localRev) : row.localRev
            guard try QueueTable.send(entry.seq, sentRev: sentRev, sentData: data?.serialized(), in: db) else {
                throw OfflineStoreError(.corrupted, "queue entry \(entry.seq) is no longer pending; it is not sent")
            }
            var op = PushOperation(id: entry.objectID, kind: entry.kind, data: data,
                                   baseVersion: entry.kind == .create ? nil : entry.baseVersion,
                                   idempotencyKey: entry.idempotencyKey)
            op.isResend = entry.attempts > 0
            op.attempt = entry.attempts + 1
            return SentEntry(entry: entry, operation: op, sentRev: sentRev)
        }
    }
}

extension InFlight {
    /// Returns a batch that ``mark(_:watchesLateDeliveries:in:)`` marked and that was never
    /// sent to the queue as it was before (``QueueTransition/withdraw``). Entries the mark
    /// settled (given way to a later delete) stay settled: that did not depend on sending.
    /// A first send gets its empty payload and revision back; a resend keeps the payload it
    /// has now, which is the one it was sent with (or what a model upgrade rewrote it to since).
    /// An entry no longer in flight from that mark is left as it is: something else owns it now.
    static func withdraw(_ batch: [SentEntry], in db: Database) throws {
        for s in batch {
            try QueueTable.withdraw(s.entry.seq, attempts: s.entry.attempts, firstSend: s.entry.sentData == nil,
                                    sentRev: s.entry.sentRev, in: db)
        }
    }
}
