import Foundation
import GRDB

/// Reading the flush candidates: queue entries in FIFO order with their object's state, a
/// page at a time (the engine reads pages until ``FlushPlan`` has decided the next batch).
enum FlushQueue {
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
