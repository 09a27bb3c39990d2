import Foundation
import GRDB

extension ObjectStore {
    /// What became of the queue when an edit was recorded.
    enum EnqueueResult {
        case queued
        /// A pending create met a delete: nothing is left to send.
        case cancelled
    }

    /// Records an edit of `row` in the queue, coalescing into the object's last entry
    /// when it is pending and was never sent; otherwise appends a new entry.
    ///
    /// An entry that was sent once (in flight, or back to pending after a lost answer)
    /// may already be applied on the server: it is resent exactly as it was, so the
    /// server's precondition answer can prove it was our own write.
    /// `writer` is the store's writer cache on the local edit path.
    static func enqueue(_ db: Database, row: ObjectRow, kind: QueueEntry.Kind, now: Date,
                        on writer: WriterStatements? = nil) throws -> EnqueueResult {
        if let last = try lastEntry(db, collection: row.collection, id: row.id, on: writer),
           last.state == .pending, last.attempts == 0 {
            guard let outcome = Coalescing.combine(pending: last.kind, with: kind) else {
                throw OfflineStoreError(.invalidOperation,
                    "cannot queue \(kind.rawValue) after a pending \(last.kind.rawValue) of \(row.collection)/\(row.id)")
            }
            switch outcome {
            case .merge(let merged):
                if merged != last.kind { try QueueTable.setKind(db, seq: last.seq, kind: merged) }
                return .queued
            case .cancel:
                try QueueTable.remove(db, seq: last.seq)
                return .cancelled
            }
        }
        try QueueTable.append(db, collection: row.collection, id: row.id, kind: kind, baseVersion: row.baseVersion, now: now,
                              on: writer)
        return .queued
    }

    /// What coalescing needs of the object's last entry, read by column index: a full
    /// ``QueueEntry`` (13 columns, names looked up, dates built) cost a sixth of a bulk edit;
    /// ``HotStatement`` steps it without GRDB's `Row`.
    private static func lastEntry(_ db: Database, collection: String, id: String, on writer: WriterStatements?)
        throws -> (seq: Int64, kind: QueueEntry.Kind, state: QueueEntry.State, attempts: Int)? {
        let statement = try HotStatement.read(db, .lastQueueEntry, on: writer)
        try statement.bind(1, collection)
        try statement.bind(2, id)
        guard let (seq, kindName, stateName, attempts) = try statement.first({ row in
            (row.int(0), row.text(1) ?? "", row.text(2) ?? "", Int(row.int(3)))
        }) else { return nil }
        guard let kind = QueueEntry.Kind(rawValue: kindName), let state = QueueEntry.State(rawValue: stateName) else {
            throw OfflineStoreError(.corrupted, "queue entry \(seq) has an unknown kind or state")
        }
        return (seq, kind, state, attempts)
    }
}
