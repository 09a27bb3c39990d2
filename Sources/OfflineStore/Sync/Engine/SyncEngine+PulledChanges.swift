import GRDB

/// Applying pulled changes: in transactions of ``RefreshPipeline/chunkSize``, each change
/// through the recognisers ``PulledChangeRule`` orders, with the page's cursor in its last
/// transaction.
extension SyncEngine {
    /// Applies pulled changes in transactions of ``RefreshPipeline/chunkSize``
    /// (``RefreshPipeline/chunks(of:)``); `cursor`, when not nil, is stored with the last (one
    /// transaction for the cursor alone when there is no change).
    func apply(_ changes: [RemoteChange], cursor: String?, to collection: CollectionDescriptor, report: inout SyncReport) throws {
        let changes = IncomingRecords.upgrade(changes, of: collection)   // records of older releases, in the current shape
        let chunks = RefreshPipeline.chunks(of: changes)
        for (index, chunk) in (chunks.isEmpty ? [[]] : chunks).enumerated() {
            var chunkReport = SyncReport()
            var notices = AppNotices()
            try write("applying changes of \(collection.name)") { db in
                let sizeBefore = try local.sizeBeforeWrite(db)
                var unanswered = try UnansweredCreate.all(in: collection.name, backend: backend, db: db)
                var watched = try watchedCreates(in: collection.name, in: db)
                // Decided once per transaction; a recogniser whose list empties meanwhile takes nothing more.
                let steps = PulledChangeRule.steps(unansweredCreates: !unanswered.isEmpty, watchedCreates: watched != nil)
                for change in chunk {
                    try applyPulledChange(change, steps: steps, unanswered: &unanswered, watched: &watched, collection: collection,
                                          report: &chunkReport, notices: &notices, in: db)
                }
                try local.enforceStoreSize(db, before: sizeBefore, protecting: EvictionGuard(chunk, in: collection.name))
                if index == max(chunks.count, 1) - 1, let cursor { try CollectionsTable.setCursor(cursor, of: collection.name, in: db) }
            }
            try deliver(notices, report: &chunkReport)
            report.addApplied(chunkReport)
        }
    }

    /// One pulled change, through the recognisers in ``PulledChangeRule``'s order: the answer to
    /// a create whose answer was lost, a late delivery, then the usual way (``applyRemoteChange``).
    private func applyPulledChange(_ change: RemoteChange, steps: [PulledChangeRule.Step], unanswered: inout [UnansweredCreate],
                                   watched: inout [WatchedCreate]?, collection: CollectionDescriptor, report: inout SyncReport,
                                   notices: inout AppNotices, in db: Database) throws {
        for step in steps {
            switch step {
            case .createAnswer:
                if try adoptAsCreateAnswer(change, unanswered: &unanswered, collection: collection, report: &report,
                                           notices: &notices, in: db) { return }
            case .lateDelivery:
                if try applyLateDelivery(change, watched: &watched, collection: collection, report: &report,
                                         notices: &notices, in: db) { return }
            case .remoteChange:
                try applyRemoteChange(change, to: collection, report: &report, notices: &notices, in: db)
                return
            }
        }
    }

    /// Applies one server change to the local store as ``RemoteChangeRule`` decides
    /// (inside a write: on the writer's statements).
    func applyRemoteChange(_ change: RemoteChange, to collection: CollectionDescriptor,
                           report: inout SyncReport, notices: inout AppNotices, in db: Database) throws {
        if let text = change.canonicalText,
           try local.insertServerCopyIfNew(db, collection: collection.name, id: change.id, text: text,
                                           version: change.version) {
            // A new object from checked canonical text holding its id (RemoteChange): stored as
            // it is, the row `.insert` below writes, without building a tree, and without probing
            // first (an existing row is left alone, and the rule below decides as before).
            report.pulled += 1
            return
        }
        let existing = try local.row(db, collection: collection.name, id: change.id)
        let record = try change.record.map { JSONValue.object(try ObjectValidation.members(of: $0, id: change.id)) }
        let rule = RemoteChangeRule.decide(existing, version: change.version, record: record)
        guard var row = existing else {
            guard rule == .insert else { return }
            var row = ObjectRow(collection: collection.name, id: change.id)
            row.persistent = record
            row.serverVersion = change.version
            try local.save(row, in: db)
            report.pulled += 1
            return
        }
        if rule == .ignore { return }
        row.persistent = record
        row.serverVersion = change.version
        report.pulled += 1
        switch rule {
        case .insert, .ignore, .replace, .storeServerCopy:
            try local.save(row, in: db)
        case .delete:
            try row.delete(db)
        case .meetLocalEdit(let tombstoneAgrees):
            for step in PulledChangeRule.localEditSteps(tombstoneAgrees: tombstoneAgrees) {
                switch step {
                case .sentWrite:
                    // Our own write whose answer was lost (SyncEngine+LostAnswers.swift) is no conflict.
                    if try applyAsSentWrite(record, version: change.version, row: &row, in: db) { return }
                case .agreeingTombstone:
                    // A tombstone agrees with a local delete, and with a create that started from no
                    // server copy (e.g. re-created after our own delete whose answer was lost): the
                    // edit stays queued and nothing conflicts (the resent delete gets 404, the create
                    // `If-None-Match: *` succeeds over a tombstone).
                    try local.save(row, in: db)
                    return
                case .lateDeliveryConflict:
                    if try settleLateDeliveryConflict(row, report: &report, notices: &notices, in: db) { return }
                case .conflict:
                    report.count(try settleConflict(db, row: row, policy: collection.conflictPolicy, notices: &notices))
                    return
                }
            }
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
