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
    /// Marks the batch in flight, building each operation from the object's current local copy.
    static func mark(_ batch: [QueueEntry], in db: Database) throws -> [SentEntry] {
        try batch.map { entry in
            guard let row = try ObjectRow.fetch(db, collection: entry.collection, id: entry.objectID) else {
                throw OfflineStoreError(.corrupted, "queue entry \(entry.seq) has no object \(entry.collection)/\(entry.objectID)")
            }
            // An entry sent before is resent as it was; a new one carries the current local copy.
            var data: JSONValue? = entry.kind == .delete ? nil : row.local
            var sentRev = row.localRev
            if entry.attempts > 0, entry.kind != .delete, let text = entry.sentData {
                data = try JSONValue(parsing: text)
                sentRev = entry.sentRev ?? sentRev
            }
            if entry.kind != .delete, data == nil {
                throw OfflineStoreError(.corrupted, "queue entry \(entry.seq) has no local copy to send")
            }
            guard try QueueTable.send(entry.seq, sentRev: sentRev, sentData: data?.serialized(), in: db) else {
                throw OfflineStoreError(.corrupted, "queue entry \(entry.seq) is no longer pending; it is not sent")
            }
            var op = PushOperation(id: entry.objectID, kind: entry.kind, data: data,
                                   baseVersion: entry.kind == .create ? nil : entry.baseVersion,
                                   idempotencyKey: entry.idempotencyKey)
            op.isResend = entry.attempts > 0
            return SentEntry(entry: entry, operation: op, sentRev: sentRev)
        }
    }
}
