import Foundation

extension SyncEngine {
    /// Pulls each collection in turn (``refreshCollection(_:full:report:context:)``); returns the
    /// error that stopped the run early, if any. Runs under the sync lock (the caller holds it).
    func pullCollections(_ targets: [CollectionDescriptor], full: Bool, report: inout SyncReport,
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
        let backendSweeps = backend.traits(of: collection.name).sweepsDeletions
        let sweeping = DeletionSweepRule.sweeps(backendSweeps: backendSweeps, fromTheBeginning: cursor == nil,
                                                holdsServerCopies: holdsServerCopies)
        let mayRestart = DeletionSweepRule.collectsForRestart(backendSweeps: backendSweeps, fromTheBeginning: cursor == nil)
        // A scoped pull's cursor waits for the departure pull that covers it (ScopedCursorRule).
        let commit = ScopedCursorRule.commit(scoped: scope != nil, heldObjects: hadObjects)
        // The ids are kept only where the departures or a sweep need them: a million-object pull keeps none.
        let pulled = try await pullPages(collection, since: cursor, scope: scope, storingCursor: commit.storesPageCursors,
                                         collectingIDs: (scope != nil && hadObjects) || sweeping || mayRestart,
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
        // On a server without tombstones an empty listing is how the deletion of its last
        // records shows (a sweep removes them, never an object with pending edits).
        if cursor == nil, scope == nil, pulled.count == 0, !backendSweeps { try checkServerKeptData(of: collection.name) }
        // The refused cursor is not asked again when the pull that replaced it gave none.
        if pulled.restarted, pulled.cursor == nil, commit.storesPageCursors {
            try write("forgetting the refused cursor of \(collection.name)") { db in
                try CollectionsTable.setCursor(nil, of: collection.name, in: db)
            }
        }
        // A pull asked from a cursor that started over lists every live record too (PullPage.restartedFromTheBeginning).
        if DeletionSweepRule.sweeps(backendSweeps: backendSweeps, fromTheBeginning: cursor == nil || pulled.restarted,
                                    holdsServerCopies: holdsServerCopies) {
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
    /// arrive, as ``RefreshPipeline`` says: the backend hands over records while a page
    /// downloads (``Backend/pull(_:delivering:)``), and they are applied in transactions of
    /// ``RefreshPipeline/chunkSize``, the page's cursor with its last change. Records applied
    /// before their page's end are server copies like any other (a page broken off leaves
    /// them, and the cursor where it was: the next refresh reads them again, which changes
    /// nothing), so the cursor still advances only with its whole page.
    ///
    /// Reading and applying overlap: a transaction runs in a child task of its own while the
    /// next changes are read, so the two use two cores (the work on a page's last chunk is what
    /// the download cannot hide, Docs/Performance.md). The transactions are child tasks of one
    /// group, at most one at a time: a child task runs where its parent prefers (the
    /// simulator's executor steers every client task). `includingDeletions` false (a pull from
    /// the beginning into a collection holding no server copy) lets the backend leave
    /// tombstones out; the scope is applied again to what arrives (a backend may drop it).
    /// - Returns: how many changes the pages brought, when `collectingIDs` the version each id
    ///   was brought at, the last page's cursor (nil when it had none: the stored one stays),
    ///   and whether the pull started over from the beginning (``PullPage/restartedFromTheBeginning``).
    @discardableResult
    private func pullPages(_ collection: CollectionDescriptor, since cursor: String?, scope: ServerQuery?,
                           storingCursor: Bool, collectingIDs: Bool, includingDeletions: Bool,
                           preparing: Bool, pulledBefore: Bool, report: inout SyncReport,
                           context: SyncContext) async throws -> (count: Int, ids: [String: String], cursor: String?, restarted: Bool) {
        let backend = self.backend, name = collection.name
        let request = PullRequest(collection: name, cursor: cursor, scope: scope, hints: .init(needsDeletions: includingDeletions))
        var pipeline = RefreshPipeline(storesCursor: storingCursor, collectsIDs: collectingIDs)
        return try await withThrowingTaskGroup(of: SyncReport.self) { applying in
            /// Does what the pipeline answered, in order; returns the next page to ask, if any.
            func perform(_ actions: [RefreshPipeline.Action]) async throws -> PullContinuation? {
                var next: PullContinuation?
                for action in actions {
                    switch action {
                    case .awaitTransaction:
                        if let applied = try await applying.next() { report.addApplied(applied) }
                    case .apply(let changes, let cursor):
                        applying.addTask { [self] in
                            var applied = SyncReport()
                            try apply(changes, cursor: cursor, to: collection, report: &applied)
                            return applied
                        }
                    case .reportProgress(let count, let total):
                        reportPullProgress(name, count: count, total: total, context: context)
                    case .fetch(let continuation):
                        next = continuation
                    case .finish:
                        next = nil
                    }
                }
                return next
            }
            func deliver(_ changes: [RemoteChange]) async throws {
                _ = try await perform(pipeline.delivered(scope == nil ? changes : changes.keeping(scope)))
            }
            func fetch(_ continuation: PullContinuation?) async throws -> PullPage {
                // Cancelled: stop between pages; every page already applied stays applied
                // with its cursor, and the next refresh resumes from there.
                if Task.isCancelled { throw CancellationError() }
                return try await backend.pull(request.continuing(continuation), delivering: deliver).keeping(scope)
            }
            do {
                var page = try await firstPage(fetch, preparing: preparing ? name : nil, pulledBefore: pulledBefore,
                                               handedOver: { pipeline.handedOver })
                while let next = try await perform(pipeline.pageEnded(page)) {
                    page = try await fetch(next)
                }
            } catch {
                // Stopped while a transaction was under way: it ends first (a chunk is server copies
                // like any other, applied or not as a whole; a page's last one moves the cursor with
                // its page, as if the stop had come just after it), then the error goes on.
                for action in pipeline.stopped() where action == .awaitTransaction {
                    if let applied = try? await applying.next() { report.addApplied(applied) }
                }
                throw error
            }
            return (pipeline.count, pipeline.ids, pipeline.lastCursor, pipeline.restarted)
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
