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
            try db.cachedStatement(sql: """
                UPDATE queue SET state = 'in-flight', attempts = attempts + 1, sent_rev = ?, sent_data = ? WHERE seq = ?
                """).execute(arguments: [sentRev, data?.serialized(), entry.seq])
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

    /// The next batch to send (``FlushPlan``), reading the queue in FIFO pages only as far
    /// as needed to decide it: sent entries leave the queue, so a flush of n entries reads
    /// O(n) rows in all instead of the whole queue before every batch.
    static func nextBatch(_ db: Database, maxSize: Int, skipping skipped: Set<Int64>) throws -> [QueueEntry] {
        var candidates: [FlushPlan.Candidate] = []
        // A server may announce any batch limit (even Int.max): grow the page without overflowing.
        var pageSize = max(64, maxSize.multipliedReportingOverflow(by: 4).overflow ? Int.max : maxSize * 4)
        var after = Int64.min
        while true {
            let page = try self.candidates(db, after: after, limit: pageSize)
            candidates += page
            let plan = FlushPlan.plan(candidates, maxSize: maxSize, skipping: skipped)
            guard !plan.isDecided, page.count == pageSize, let last = page.last else { return plan.batch }
            after = last.entry.seq
            // A long held-back head costs O(n) per batch, as a whole read would.
            pageSize = pageSize.multipliedReportingOverflow(by: 2).overflow ? Int.max : pageSize * 2
        }
    }

    static let candidateColumns = QueueTable.columns.split(separator: ",")
        .map { "q." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")

    /// Queue entries after `seq` in FIFO order, at most `limit`, with their object's state.
    static func candidates(_ db: Database, after seq: Int64 = Int64.min, limit: Int = -1) throws -> [FlushPlan.Candidate] {
        let statement = try db.cachedStatement(sql: """
            SELECT \(candidateColumns), o.state AS object_state
            FROM queue q LEFT JOIN objects o ON o.collection = q.collection AND o.id = q.object_id
            WHERE q.seq > ? ORDER BY q.seq LIMIT ?
            """)
        return try Row.fetchAll(statement, arguments: [seq, limit]).map { row in
            let state: String? = row["object_state"]
            return FlushPlan.Candidate(entry: try QueueTable.entry(row), objectState: state.flatMap(SyncState.init(rawValue:)))
        }
    }
}
