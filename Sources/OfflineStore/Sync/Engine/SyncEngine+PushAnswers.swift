import Foundation
import GRDB

extension SyncEngine {
    /// Applies the server's answer to one sent entry, inside the caller's transaction, as
    /// ``PushOutcomeRule`` decides. Returns an error when the answer says to stop the flush (retry later).
    func applyPushOutcome(_ outcome: PushOutcome, of sent: SentEntry, policy: ConflictPolicy,
                          report: inout SyncReport, notices: inout AppNotices, in db: Database) throws -> OfflineStoreError? {
        let entry = sent.entry
        guard var row = try ObjectRow.fetch(db, collection: entry.collection, id: entry.objectID) else {
            try QueueTable.remove(db, seq: entry.seq)
            return nil
        }
        let answer = PushOutcomeRule.decide(outcome, sent: sent.operation.data)
        if answer.isPushed { report.pushed += 1 }
        switch answer {
        case .applied(let record, let version):
            if let sent = try rekeyIfServerAssigned(record, sent: sent, row: &row, in: db) {
                try applied(record: record, version: version, sent: sent, row: &row, db: db)
            }
        case .appliedThenDeleted(let record, let version):
            // Merged into a pulled copy: that copy meets the deletion with its own writes.
            guard let sent = try rekeyIfServerAssigned(record, sent: sent, row: &row, in: db) else { break }
            try applied(record: record, version: version, sent: sent, row: &row, db: db)
            try applyServerDeletion(of: sent.entry, version: version, policy: policy, report: &report, notices: &notices, in: db)
        case .conflict(let server, let version):
            try QueueTable.requeue(entry.seq, in: db)
            row.persistent = server
            row.serverVersion = version
            if try settleLateDeliveryConflict(row, report: &report, notices: &notices, in: db) { break }
            report.count(try settleConflict(db, row: row, policy: policy, notices: &notices))
        case .rejected(let status, let body):
            try QueueTable.reject(entry.seq, status: status, body: body,
                                  message: FailureRule.failure(status: status) == .forbidden
                                      ? "the server refused the user permission for the \(entry.kind.rawValue) (HTTP 403)"
                                      : "the server rejected the \(entry.kind.rawValue) (HTTP \(status))", in: db)
            row.state = .failed
            try row.save(db)
            notices.rejected.append(entry.seq)
        case .retry(let status, let message, let retryAfter):
            let error = OfflineStoreError(.server, message, status: status, retryAfter: retryAfter)
            let wait = retryAfter ?? RetryBackoff.delay(afterAttempt: entry.attempts + 1)
            try QueueTable.release(entry.seq, error: error, notBefore: configuration.now().addingTimeInterval(wait.timeInterval), in: db)
            return error
        }
        return nil
    }

    /// The server deleted an object whose create it had applied: as a pulled tombstone, the
    /// object goes when nothing local is pending, else the collection's policy settles the
    /// conflict between the local edit and the deletion.
    private func applyServerDeletion(of entry: QueueEntry, version: String?, policy: ConflictPolicy,
                                     report: inout SyncReport, notices: inout AppNotices, in db: Database) throws {
        guard var row = try ObjectRow.fetch(db, collection: entry.collection, id: entry.objectID) else { return }
        row.persistent = nil
        row.serverVersion = version
        guard row.dirty || row.state == .conflicted || row.state == .failed else {
            try row.delete(db)
            return
        }
        if row.local == nil {
            try row.save(db)  // deleted here too: the queued delete meets a 404, which is success
            return
        }
        report.count(try settleConflict(db, row: row, policy: policy, notices: &notices))
    }

    /// The server applied the entry: its answer becomes the persistent copy; a newer
    /// local edit made while the entry was in flight stays, rebased on the new version.
    func applied(record: JSONValue?, version: String?, sent: SentEntry, row: inout ObjectRow, db: Database) throws {
        let entry = sent.entry
        try QueueTable.remove(db, seq: entry.seq)
        let remaining = try QueueTable.entries(db, collection: entry.collection, id: entry.objectID)
        if entry.kind == .delete {
            row.persistent = nil
            // A create of ours still on the wire would bring it back: the deletion is what it would undo.
            if watchesLateDeliveries { try LateDeliveryTable.noteDeletion(collection: entry.collection, id: entry.objectID, version: version, in: db) }
        } else {
            row.persistent = record ?? sent.operation.data
        }
        row.serverVersion = version
        if row.localRev == sent.sentRev && remaining.isEmpty {
            if row.persistent == nil { try row.delete(db); return }
            row.state = .synced
            row.clearLocalEdit()
        } else {
            row.base = row.persistent
            row.baseVersion = version
            try QueueTable.rebase(db, collection: entry.collection, id: entry.objectID, onto: version)
            if row.state != .failed { row.state = .synced }
            row.deriveState()
        }
        try row.save(db)
    }
}
