import Foundation
import GRDB

/// Reading the flush candidates: queue entries in FIFO order with their object's state.
enum FlushQueue {
    /// The next batch to send (``FlushPlan``), reading the queue in FIFO pages only as far
    /// as needed to decide it: sent entries leave the queue, so a flush of n entries reads
    /// O(n) rows in all instead of the whole queue before every batch.
    static func nextBatch(_ db: Database, maxSize: Int, skipping skipped: Set<Int64>) throws -> [QueueEntry] {
        var candidates: [FlushPlan.Candidate] = []
        // A server may announce any batch limit (even Int.max): grow the page without overflowing.
        var pageSize = max(32, maxSize.multipliedReportingOverflow(by: 2).overflow ? Int.max : maxSize * 2)
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
        // A cursor's rows are read in place (no copy per row); each is decoded before the next step.
        return try Array(Row.fetchCursor(statement, arguments: [seq, limit]).map { row in
            let state: String? = row[15]  // after QueueTable.columns
            return FlushPlan.Candidate(entry: try QueueTable.entry(row), objectState: state.flatMap(SyncState.init(rawValue:)))
        })
    }
}
