import Foundation
import GRDB

extension ObjectStore {
    /// Flushes the queue, then refreshes (SAP flushAndRefresh), with one report.
    ///
    /// - Throws: ``OfflineStoreError`` when either step stopped early, with what was done in its ``OfflineStoreError/report``.
    @discardableResult
    public func sync() async throws -> SyncReport {
        try await observed(.sync) {
            var report = SyncReport()
            let stop: OfflineStoreError? = try await withSyncLock {
                let (pushed, flushStop) = try await runFlush()
                report.absorb(pushed)
                if let flushStop { return flushStop }
                let (pulled, refreshStop) = try await runRefresh(collections: nil, full: false)
                report.absorb(pulled)
                return refreshStop
            }
            if let stop { throw stop.stoppingRun(after: report) }
            try markSynced()
            return report
        }
    }

    /// When the last flush-and-refresh or refresh completed, or nil if never.
    public func lastSync() throws -> Date? {
        try read("reading the last sync time") { db in
            try Double.fetchOne(db, sql: "SELECT CAST(value AS REAL) FROM meta WHERE key = 'lastSync'")
                .map(Date.init(timeIntervalSince1970:))
        }
    }

    func markSynced() throws {
        let now = configuration.now().timeIntervalSince1970
        try write("recording the sync time") { db in
            try db.execute(sql: "INSERT INTO meta(key, value) VALUES ('lastSync', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                           arguments: [String(now)])
        }
    }
}
