import GRDB

/// Applying pulled changes: a page in transactions of ``refreshChunkSize``, each change as
/// ``RemoteChangeRule`` decides (after own-write and late-write recognition), with the
/// page's cursor in its last transaction.
extension SyncEngine {
    /// Applies one page in chunks; the page's cursor is stored with its last chunk.
    func apply(_ page: PullPage, to collection: CollectionDescriptor, report: inout SyncReport) throws {
        let page = IncomingRecords.upgrade(page, of: collection)   // records of older releases, in the current shape
        var start = 0
        repeat {
            let end = min(page.changes.count, start + SyncEngine.refreshChunkSize)
            let chunk = page.changes[start..<end]
            let isLast = end == page.changes.count
            var chunkReport = SyncReport()
            var notices = AppNotices()
            try write("applying changes of \(collection.name)") { db in
                let sizeBefore = try local.sizeBeforeWrite(db)
                var unanswered = try UnansweredCreate.all(in: collection.name, backend: backend, db: db)
                var watched = try watchedCreates(in: collection.name, in: db)
                for change in chunk {
                    if try adoptAsCreateAnswer(change, unanswered: &unanswered, collection: collection, report: &chunkReport,
                                               notices: &notices, in: db) {
                        continue
                    }
                    if try applyLateDelivery(change, watched: &watched, collection: collection, report: &chunkReport,
                                          notices: &notices, in: db) {
                        continue
                    }
                    try applyRemoteChange(change, to: collection, report: &chunkReport, notices: &notices, in: db)
                }
                try local.enforceStoreSize(db, before: sizeBefore, protecting: EvictionGuard(chunk, in: collection.name))
                if isLast, let cursor = page.cursor { try CollectionsTable.setCursor(cursor, of: collection.name, in: db) }
            }
            try deliver(notices, report: &chunkReport)
            report.addApplied(chunkReport)
            start = end
        } while start < page.changes.count
    }

    /// Applies one server change to the local store as ``RemoteChangeRule`` decides
    /// (inside a write: on the writer's statements).
    func applyRemoteChange(_ change: RemoteChange, to collection: CollectionDescriptor,
                           report: inout SyncReport, notices: inout AppNotices, in db: Database) throws {
        if let text = change.canonicalText,
           try ObjectRow.insertServerCopyIfNew(db, collection: collection.name, id: change.id, text: text,
                                               version: change.version, on: local.writerStatements) {
            // A new object from checked canonical text holding its id (RemoteChange): stored as
            // it is, the row `.insert` below writes, without building a tree, and without probing
            // first (an existing row is left alone, and the rule below decides as before).
            report.pulled += 1
            return
        }
        let existing = try ObjectRow.fetch(db, collection: collection.name, id: change.id, on: local.writerStatements)
        let record = try change.record.map { JSONValue.object(try ObjectValidation.members(of: $0, id: change.id)) }
        let rule = RemoteChangeRule.decide(existing, version: change.version, record: record)
        guard var row = existing else {
            guard rule == .insert else { return }
            var row = ObjectRow(collection: collection.name, id: change.id)
            row.persistent = record
            row.serverVersion = change.version
            try row.save(db, on: local.writerStatements)
            report.pulled += 1
            return
        }
        if rule == .ignore { return }
        row.persistent = record
        row.serverVersion = change.version
        report.pulled += 1
        switch rule {
        case .insert, .ignore, .replace, .storeServerCopy:
            try row.save(db, on: local.writerStatements)
        case .delete:
            try row.delete(db)
        case .meetLocalEdit(let tombstoneAgrees):
            // Our own write whose answer was lost (SyncEngine+LostAnswers.swift) is no conflict.
            if try applyAsSentWrite(record, version: change.version, row: &row, in: db) { return }
            // A tombstone agrees with a local delete, and with a create that started from no
            // server copy (e.g. re-created after our own delete whose answer was lost): the
            // edit stays queued and nothing conflicts (the resent delete gets 404, the create
            // `If-None-Match: *` succeeds over a tombstone).
            if tombstoneAgrees {
                try row.save(db, on: local.writerStatements)
                return
            }
            if try settleLateDeliveryConflict(row, report: &report, notices: &notices, in: db) { return }
            report.count(try settleConflict(db, row: row, policy: collection.conflictPolicy, notices: &notices))
        }
    }
}

extension SyncReport {
    /// Adds the counts of work done by one applied chunk of a refresh.
    mutating func addApplied(_ chunk: SyncReport) {
        pulled += chunk.pulled
        lateDeliveriesUndone += chunk.lateDeliveriesUndone
        conflictsDetected += chunk.conflictsDetected
        conflictsResolved += chunk.conflictsResolved
    }
}

extension EvictionGuard {
    /// Protects the objects of a refresh chunk (built only when eviction runs).
    init(_ changes: ArraySlice<RemoteChange>, in collection: String) {
        self.init(collection: collection, ids: Set(changes.lazy.map(\.id)))
    }
}
