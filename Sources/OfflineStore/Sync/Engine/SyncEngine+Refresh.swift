import Foundation
import GRDB

extension SyncEngine {
    /// How many changes one refresh transaction applies.
    static let refreshChunkSize = 500

    /// Pulls the server's changes of every synced collection (or the named ones) since
    /// their stored cursors, page by page, in chunked transactions; runs under the sync
    /// lock (the caller holds it). A cursor advances only with the page it belongs to, in
    /// the same transaction as its last change.
    func runRefresh(collections names: [String]?, full: Bool, _ context: SyncContext) async throws -> (SyncReport, OfflineStoreError?) {
        var report = SyncReport()
        if isForcedOffline { return (try finish(report), OfflineStoreError(.offline, "the store is set offline")) }
        let targets = try (names?.map { try descriptor(of: $0) } ?? collections.all).filter { !$0.isLocalOnly }
        var stop = await pull(targets, full: full, report: &report, context)
        if stop == nil { stop = try await downloadEagerBlobs(of: targets, report: &report) }
        return (try finish(report), stop)
    }

    /// Pulls each collection in turn; returns the error that stopped the run early, if any.
    private func pull(_ targets: [CollectionDescriptor], full: Bool, report: inout SyncReport,
                      _ context: SyncContext) async -> OfflineStoreError? {
        for collection in targets {
            if let cancelled = SyncCancellation.check("the refresh") { return cancelled }
            do {
                try await refreshCollection(collection, full: full, report: &report, context: context)
            } catch let error as OfflineStoreError where ReadAccessRule.isReadRefusal(error) {
                // Read access withdrawn (or never given): the collection's policy, the others go on.
                do {
                    try loseReadAccess(collection, error, report: &report)
                } catch {
                    return SyncCancellation.stop(for: error, "the refresh")
                }
            } catch {
                return SyncCancellation.stop(for: error, "the refresh")
            }
        }
        return SyncCancellation.check("the refresh")
    }

    /// Pulls one collection: first what a changed scope still has to pull, then the changes
    /// since the cursor (of the records in its scope), then, for a scoped collection, the
    /// records that left the scope. The backend prepares the collection alongside the first
    /// request (``pullPages``).
    func refreshCollection(_ collection: CollectionDescriptor, full: Bool, report: inout SyncReport, context: SyncContext) async throws {
        // A collection known read-only is asked again, so that write access granted since is seen.
        if collections.isReadOnly(collection.name) { try await prepareRecordingAccess(collection.name) }
        let scope = collection.syncScope.flatMap { $0.terms.isEmpty ? nil : $0 }
        // One read: the cursor, a pending scope catch-up, (scoped only) whether anything local
        // could have left the scope, (pulling from the beginning only) whether a deletion
        // could remove anything here, and whether a loss of read access was told of.
        let (storedCursor, catchUp, hadObjects, holdsServerCopies, toldLost) = try read("reading the state of \(collection.name)") { db in
            let storedCursor = try CollectionsTable.cursor(of: collection.name, in: db)
            let catchUp = try CollectionsTable.scopeCatchUp(of: collection.name, in: db)
            let fromTheBeginning = full || storedCursor == nil || catchUp == .fullPull
            return (storedCursor, catchUp, try scope != nil && ObjectRow.any(db, in: collection.name),
                    try !fromTheBeginning || ObjectRow.anySynced(db, in: collection.name),
                    try CollectionsTable.readAccessLost(of: collection.name, in: db))
        }
        var cursor = full ? nil : storedCursor
        // The collection's first request goes with its preparation; a collection pulled before
        // (it has a cursor) exists on the server, so it is prepared only if that request fails.
        var preparing = true
        let pulledBefore = storedCursor != nil
        switch catchUp {
        case .fullPull?: cursor = nil
        case .queries(let queries)?:
            // The records the new scope adds, from the beginning; the cursor is not theirs to move.
            for query in queries {
                try await pullPages(collection, since: nil, scope: query, storingCursor: false, collectingIDs: false,
                                    includingDeletions: true, preparing: preparing, pulledBefore: pulledBefore,
                                    report: &report, context: context)
                preparing = false
            }
        case nil: break
        }
        let departuresSince = cursor
        let sweeping = DeletionSweepRule.sweeps(backendSweeps: backend.traits(of: collection.name).sweepsDeletions,
                                                fromTheBeginning: cursor == nil, holdsServerCopies: holdsServerCopies)
        // A scoped pull's cursor waits for the departure pull that covers it (ScopedCursorRule).
        let commit = ScopedCursorRule.commit(scoped: scope != nil, heldObjects: hadObjects)
        // The ids are kept only where the departures or a sweep need them: a million-object pull keeps none.
        let pulled = try await pullPages(collection, since: cursor, scope: scope, storingCursor: commit.storesPageCursors,
                                         collectingIDs: (scope != nil && hadObjects) || sweeping,
                                         includingDeletions: cursor != nil || holdsServerCopies, preparing: preparing,
                                         pulledBefore: pulledBefore, report: &report, context: context)
        if let scope, hadObjects {
            try await pullDepartures(collection, scope: scope, since: departuresSince, delivered: pulled.ids, report: &report)
        }
        if let scope, !commit.storesPageCursors {
            let reasons = ChangeReasons()
            report.leftScope += try write("recording the cursor of \(collection.name)", reasons: reasons) { db in
                if let last = pulled.cursor { try CollectionsTable.setCursor(last, of: collection.name, in: db) }
                return try removeSettledDepartures(scope: scope, collection: collection.name, in: db, reasons: reasons)
            }
        }
        if catchUp != nil {
            try write("recording the scope catch-up of \(collection.name)") { db in
                try CollectionsTable.setScopeCatchUp(nil, of: collection.name, in: db)
            }
        }
        // A scope may rightly match nothing; only a whole collection that came back empty is checked.
        if cursor == nil, scope == nil, pulled.count == 0 { try checkServerKeptData(of: collection.name) }
        if sweeping {
            let reasons = ChangeReasons()
            report.swept += try write("removing objects of \(collection.name) the server no longer lists", reasons: reasons) { db in
                try DeletionSweep.apply(listed: pulled.ids, collection: collection.name, in: db, reasons: reasons)
            }
        }
        // The pull succeeded: a withdrawn read access that was told of has returned, so a
        // later loss is told again (a write only when the loss was recorded).
        if toldLost {
            try write("recording that read access to \(collection.name) returned") { db in
                try CollectionsTable.setReadAccessLost(false, of: collection.name, in: db)
            }
        }
    }

    /// Pulls pages since `cursor` (of the records matching `scope`) and applies them as they
    /// arrive: the backend hands over records while a page downloads
    /// (``Backend/pull(_:delivering:)``), and
    /// every ``refreshChunkSize`` of them are applied in a transaction of their own; the rest
    /// of the page is applied with the page's cursor, in the page's last transaction. Records
    /// applied before their page's end are server copies like any other (a page broken off
    /// leaves them, and the cursor where it was: the next refresh reads them again, which
    /// changes nothing), so the cursor still advances only with its whole page.
    ///
    /// Reading and applying overlap by one chunk: a chunk's transaction runs in a child task of its
    /// own while the next chunk is read, so the two use two cores (the work on a page's last
    /// chunk is what the download cannot hide, Docs/Performance.md); a page's last transaction,
    /// with its cursor, runs while the next page is asked and read. Transactions still run one
    /// at a time and in order; nothing is read further until the chunk before the one just
    /// read is applied, a page's progress is reported once its last transaction committed, and
    /// the refresh returns only once no transaction is under way.
    /// `includingDeletions` false (a pull from the beginning into a collection holding no server
    /// copy) lets the backend leave tombstones out.
    /// - Returns: how many changes the pages brought, when `collectingIDs` the version each id
    ///   was brought at, and the last page's cursor (nil when it had none: the stored one stays).
    @discardableResult
    private func pullPages(_ collection: CollectionDescriptor, since cursor: String?, scope: ServerQuery?,
                           storingCursor: Bool, collectingIDs: Bool, includingDeletions: Bool,
                           preparing: Bool, pulledBefore: Bool, report: inout SyncReport,
                           context: SyncContext) async throws -> (count: Int, ids: [String: String], cursor: String?) {
        let backend = self.backend, name = collection.name
        let request = PullRequest(collection: name, cursor: cursor, scope: scope, hints: .init(needsDeletions: includingDeletions))
        var lastCursor: String?
        var ids: [String: String] = [:]
        var count = 0
        var held: [RemoteChange] = []
        var arrived = 0
        var handedOver = false
        var pageUnderWay: (count: Int, total: Int?)?
        // The transactions run as child tasks of one group, at most one at a time: a child task
        // runs where its parent prefers (the simulator's executor steers every client task).
        return try await withThrowingTaskGroup(of: SyncReport.self) { applying in
            var underWay = false
            /// Waits for the transaction under way, adding its counts to the report; when it was a
            /// page's last, reports the page's progress.
            func settle() async throws {
                guard underWay else { return }
                underWay = false
                if let applied = try await applying.next() { report.addApplied(applied) }
                if let page = pageUnderWay {
                    pageUnderWay = nil
                    reportPullProgress(name, count: page.count, total: page.total, context: context)
                }
            }
            func launch(_ page: PullPage) {
                underWay = true
                applying.addTask { [self] in
                    var applied = SyncReport()
                    try apply(page, to: collection, report: &applied)
                    return applied
                }
            }
            func deliver(_ changes: [RemoteChange]) async throws {
                handedOver = true
                held += changes
                // A chunk goes only once more has arrived after it, so that a page's last changes
                // (a whole page of 500 included) are applied with its cursor, in one transaction.
                while held.count > SyncEngine.refreshChunkSize {
                    let chunk = Array(held.prefix(SyncEngine.refreshChunkSize))
                    held.removeFirst(SyncEngine.refreshChunkSize)
                    try await settle()
                    launch(PullPage(changes: chunk, cursor: nil, next: nil))
                    arrived += chunk.count
                    if collectingIDs { for change in chunk { ids[change.id] = change.version } }
                }
            }
            func fetch(_ continuation: PullContinuation?) async throws -> PullPage {
                // Cancelled: stop between pages; every page already applied stays applied
                // with its cursor, and the next refresh resumes from there.
                if Task.isCancelled { throw CancellationError() }
                // The scope is applied again to what arrives: a backend may have dropped it.
                let page = try await backend.pull(request.continuing(continuation)) { changes in
                    try await deliver(scope == nil ? changes : changes.keeping(scope))
                }
                return page.keeping(scope)
            }
            do {
                var page = try await firstPage(fetch, preparing: preparing ? name : nil, pulledBefore: pulledBefore,
                                               handedOver: { handedOver })
                while true {
                    try await settle()
                    page.changes = held + page.changes
                    held = []
                    if page.next == nil { lastCursor = page.cursor }
                    if !storingCursor { page.cursor = nil }
                    launch(page)
                    pageUnderWay = (arrived + page.changes.count, page.total)
                    if collectingIDs { for change in page.changes { ids[change.id] = change.version } }
                    count += arrived + page.changes.count
                    arrived = 0
                    guard let next = page.next else { break }
                    page = try await fetch(next)
                }
                try await settle()
            } catch {
                // Stopped while a transaction was under way: it ends first (a chunk is server copies
                // like any other, applied or not as a whole; a page's last one moves the cursor with
                // its page, as if the stop had come just after it), then the error goes on.
                if underWay, let applied = try? await applying.next() { report.addApplied(applied) }
                throw error
            }
            return (count, ids, lastCursor)
        }
    }

    /// The first page, asked while the backend prepares the collection `preparing` (on the
    /// collection's first request): a page that failed before handing over any change (the
    /// collection or its bucket did not exist yet) is asked again once the collection is
    /// prepared; a page that failed after handing over changes (a connection broken mid-page,
    /// a page that stopped being a list answer, a chunk that could not be applied) is not,
    /// and its error stops the refresh. A preparation that failed stops the refresh before
    /// the page's cursor is stored (changes the page already handed over stay, as when a page
    /// breaks off). A collection `pulledBefore` is prepared only when its first page fails
    /// (an idle sync of a fresh process then sends one request per collection, Docs/Scaling.md).
    private func firstPage(_ fetch: (PullContinuation?) async throws -> PullPage, preparing collection: String?,
                           pulledBefore: Bool, handedOver: () -> Bool) async throws -> PullPage {
        guard let collection else { return try await fetch(nil) }
        if pulledBefore {
            do {
                return try await fetch(nil)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                if handedOver() { throw error }
                try await prepareRecordingAccess(collection)
                return try await fetch(nil)
            }
        }
        async let prepared: Void = prepareRecordingAccess(collection)
        let page: PullPage
        do {
            page = try await fetch(nil)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            if handedOver() { throw error }
            try await prepared
            return try await fetch(nil)
        }
        try await prepared
        return page
    }

    /// The stored pull cursor of a collection (the reset tests read it).
    func storedCursor(of collection: String) throws -> String? {
        try read("reading the cursor of \(collection)") { db in try CollectionsTable.cursor(of: collection, in: db) }
    }

    /// Reports a pulled page of `count` changes (`total`: the server's announced total, if any).
    func reportPullProgress(_ collection: String, count: Int, total: Int?, context: SyncContext) {
        guard let counter = context.progress else { return }
        emit(.progress(counter.advance(collection, .pull, by: count, total: { total })))
    }
}

extension SyncEngine {
    /// After a pull from the beginning found nothing: when the store holds objects the
    /// server had (a server version), the server lost its data. Nothing local is changed.
    ///
    /// - Throws: ``OfflineStoreError/Code/serverLostData``.
    func checkServerKeptData(of collection: String) throws {
        let known = try read("checking \(collection)") { db in
            try ObjectRow.countSynced(db, in: collection)
        }
        guard known > 0 else { return }
        throw OfflineStoreError(.serverLostData,
            "the server has no records in \(collection) but this store holds \(known) object(s) it synced: the server "
            + "lost its data or the collection was deleted; local data is kept (push it again, or resyncFromServer)")
    }
}
