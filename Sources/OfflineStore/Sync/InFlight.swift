import Foundation
import GRDB

/// An entry marked in flight, with the operation sent and the object revision it carries.
struct SentEntry: Sendable {
    let entry: QueueEntry
    let operation: PushOperation
    let sentRev: Int64
}

/// Marking entries in flight and returning them to the queue.
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
            if entry.attempts > 0, entry.kind != .delete,
               let previous = try Row.fetchOne(db, sql: "SELECT sent_data, sent_rev FROM queue WHERE seq = ?", arguments: [entry.seq]),
               let text = previous["sent_data"] as String? {
                data = try JSONValue(parsing: text)
                sentRev = previous["sent_rev"] ?? sentRev
            }
            if entry.kind != .delete, data == nil {
                throw OfflineStoreError(.corrupted, "queue entry \(entry.seq) has no local copy to send")
            }
            try db.execute(sql: """
                UPDATE queue SET state = 'in-flight', attempts = attempts + 1, sent_rev = ?, sent_data = ? WHERE seq = ?
                """, arguments: [sentRev, data?.serialized(), entry.seq])
            var op = PushOperation(id: entry.objectID, kind: entry.kind, data: data,
                                   baseVersion: entry.kind == .create ? nil : entry.baseVersion,
                                   idempotencyKey: entry.idempotencyKey)
            op.isResend = entry.attempts > 0
            return SentEntry(entry: entry, operation: op, sentRev: sentRev)
        }
    }

    /// Puts an in-flight entry back to pending, keeping the error that stopped it.
    static func release(_ seq: Int64, error: OfflineStoreError?, notBefore: Date?, in db: Database) throws {
        try db.execute(sql: """
            UPDATE queue SET state = 'pending', last_error = ?, status = ?, not_before = ? WHERE seq = ? AND state = 'in-flight'
            """, arguments: [error?.description, error?.status, notBefore?.timeIntervalSince1970, seq])
    }
}

/// Reading flush candidates, and recovering from a crash during a flush.
enum FlushQueue {
    /// In-flight entries left by a crash go back to pending. They are resent with the
    /// payload they were sent with; the server's preconditions recognise a write that
    /// was already applied.
    static func prepareForFlush(_ db: Database) throws {
        try db.execute(sql: "UPDATE queue SET state = 'pending' WHERE state = 'in-flight'")
    }

    /// Every queue entry in FIFO order with its object's state.
    static func candidates(_ db: Database) throws -> [FlushPlan.Candidate] {
        try Row.fetchAll(db, sql: """
            SELECT \(QueueTable.columns.split(separator: ",").map { "q." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")),
            o.state AS object_state FROM queue q LEFT JOIN objects o ON o.collection = q.collection AND o.id = q.object_id
            ORDER BY q.seq
            """).map { row in
            let state: String? = row["object_state"]
            return FlushPlan.Candidate(entry: try QueueTable.entry(row), objectState: state.flatMap(SyncState.init(rawValue:)))
        }
    }
}
