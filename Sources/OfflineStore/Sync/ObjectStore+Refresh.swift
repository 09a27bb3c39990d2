import Foundation
import GRDB

extension ObjectStore {
    /// How many changes one refresh transaction applies.
    static let refreshChunkSize = 500

    /// Pulls the server's changes of every synced collection (or the named ones) since
    /// their stored cursors, page by page, in chunked transactions.
    ///
    /// A cursor advances only with the page it belongs to, in the same transaction as
    /// its last change. Tombstones delete. An incoming change to an object with a local
    /// edit based on another version is a conflict, settled by the collection's policy.
    /// Where the server assigns ids, a new record holding what one of our unanswered
    /// creates sent is taken as that create's answer (`adoptAsCreateAnswer`).
    ///
    /// - Parameters:
    ///   - collections: the collections to pull; nil for every collection that is not local-only.
    ///   - full: ignore the stored cursors and read everything (first sync, repair).
    /// - Throws: ``OfflineStoreError`` when the run stopped early, with what was applied (it stays applied) in its ``OfflineStoreError/report``.
    @discardableResult
    public func refresh(collections: [String]? = nil, full: Bool = false) async throws -> SyncReport {
        try await observed(.refresh) {
            let (report, stop) = try await withSyncLock { try await runRefresh(collections: collections, full: full) }
            if let stop { throw stop.stoppingRun(after: report) }
            try markSynced()
            return report
        }
    }

    func runRefresh(collections names: [String]?, full: Bool) async throws -> (SyncReport, OfflineStoreError?) {
        guard let backend else { throw OfflineStoreError(.configuration, "the store has no backend to refresh from") }
        var report = SyncReport()
        if isForcedOffline { return (try finish(report), OfflineStoreError(.offline, "the store is set offline")) }
        let targets = try (names?.map { try descriptor(of: $0) } ?? collections()).filter { !$0.isLocalOnly }
        for collection in targets {
            if let cancelled = SyncCancellation.check("the refresh") { return (try finish(report), cancelled) }
            do {
                try await backend.prepare(collection: collection.name)
                var cursor = full ? nil : try storedCursor(of: collection.name)
                var continuation: PullContinuation?
                let fromStart = cursor == nil
                var seen = 0
                repeat {
                    // Cancelled: stop between pages; every page already applied stays applied
                    // with its cursor, and the next refresh resumes from there.
                    if Task.isCancelled { throw CancellationError() }
                    let page = try await backend.pull(collection: collection.name, since: cursor, continuing: continuation)
                    try apply(page, to: collection, report: &report)
                    reportPullProgress(collection.name, page: page)
                    seen += page.changes.count
                    if let c = page.cursor, page.next == nil { cursor = c }
                    continuation = page.next
                } while continuation != nil
                if fromStart, seen == 0 { try checkServerKeptData(of: collection.name) }
            } catch {
                return (try finish(report), SyncCancellation.stop(for: error, "the refresh"))
            }
        }
        if let cancelled = SyncCancellation.check("the refresh") { return (try finish(report), cancelled) }
        return try await downloadEagerBlobs((try finish(report), nil), collections: targets)
    }

    /// The stored pull cursor of a collection.
    func storedCursor(of collection: String) throws -> String? {
        try read("reading the cursor of \(collection)") { db in
            try String.fetchOne(db, sql: "SELECT cursor FROM collections WHERE name = ?", arguments: [collection])
        }
    }

    /// Applies one page in chunks; the page's cursor is stored with its last chunk.
    private func apply(_ page: PullPage, to collection: CollectionDescriptor, report: inout SyncReport) throws {
        var start = 0
        repeat {
            let end = min(page.changes.count, start + ObjectStore.refreshChunkSize)
            let chunk = page.changes[start..<end]
            let isLast = end == page.changes.count
            var chunkReport = SyncReport()
            try write("applying changes of \(collection.name)") { db in
                let sizeBefore = try sizeBeforeWrite(db)
                var unanswered = try UnansweredCreate.all(in: collection.name, backend: backend, db: db)
                for change in chunk {
                    if try adoptAsCreateAnswer(change, unanswered: &unanswered, collection: collection, report: &chunkReport, in: db) {
                        continue
                    }
                    try applyRemoteChange(change, to: collection, report: &chunkReport, in: db)
                }
                try enforceStoreSize(db, before: sizeBefore, protecting: EvictionGuard(chunk, in: collection.name))
                if isLast, let cursor = page.cursor {
                    try db.execute(sql: "UPDATE collections SET cursor = ? WHERE name = ?", arguments: [cursor, collection.name])
                }
            }
            report.pulled += chunkReport.pulled
            report.conflictsDetected += chunkReport.conflictsDetected
            report.conflictsResolved += chunkReport.conflictsResolved
            start = end
        } while start < page.changes.count
    }

    /// Applies one server change to the local store (inside a write: on the writer's statements).
    func applyRemoteChange(_ change: RemoteChange, to collection: CollectionDescriptor,
                           report: inout SyncReport, in db: Database) throws {
        let record = try change.record.map { JSONValue.object(try ObjectValidation.members(of: $0, id: change.id)) }
        guard var row = try ObjectRow.fetch(db, collection: collection.name, id: change.id, on: writerStatements) else {
            guard let record else { return }  // a tombstone of an object we never had
            var row = ObjectRow(collection: collection.name, id: change.id)
            row.persistent = record
            row.serverVersion = change.version
            try row.save(db, on: writerStatements)
            report.pulled += 1
            return
        }
        // Changes already known (look-back re-reads, our own writes) change nothing.
        if row.serverVersion == change.version { return }
        let hasLocalEdit = row.dirty || row.state == .conflicted || row.state == .failed
        if hasLocalEdit, change.version == row.baseVersion { return }
        row.persistent = record
        row.serverVersion = change.version
        report.pulled += 1
        guard hasLocalEdit else {
            if record == nil { try row.delete(db) } else { try row.save(db, on: writerStatements) }
            return
        }
        if row.state == .conflicted || row.state == .failed {
            try row.save(db, on: writerStatements)
            return
        }
        // Our own write whose answer was lost (ObjectStore+OwnWrites.swift) is no conflict.
        if try applyAsOwnWrite(record, version: change.version, row: &row, in: db) { return }
        // A tombstone agrees with a local delete, and with a create that started from no
        // server copy (e.g. re-created after our own delete whose answer was lost): the
        // edit stays queued and nothing conflicts (the resent delete gets 404, the create
        // `If-None-Match: *` succeeds over a tombstone).
        if record == nil, row.local == nil || (row.base == nil && row.baseVersion == nil) {
            try row.save(db, on: writerStatements)
            return
        }
        report.count(try settleConflict(db, row: row, policy: collection.conflictPolicy))
    }
}
