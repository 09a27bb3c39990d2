import GRDB

/// Registering a collection (``ObjectStore/register(_:)``): what the backend can hold, and
/// what a changed sync scope means (Docs/Policies.md, "Sync scopes"); and, at the end of this
/// file, the departure pull of a scoped refresh.
extension SyncEngine {
    /// Checks the definition, stores it and, in the same transaction, applies a change of
    /// its sync scope; then the registry holds it. Later collections' registrations (model
    /// migrations included) start here.
    func register(_ descriptor: CollectionDescriptor) throws {
        try descriptor.validateDefinition()
        try checkBlobSupport(descriptor)
        let reasons = ChangeReasons()
        try local.write("registering collection \(descriptor.name)", origin: .server, reasons: reasons) { db in
            let stored = try local.saveDescriptor(descriptor, in: db)
            // A newer schema version migrates the stored copies here, in this transaction; an older one is refused.
            try CollectionVersions.register(descriptor, existed: stored != nil, in: db)
            let newScope = StoredDescriptor(descriptor).syncScope
            if let stored, stored.syncScope != newScope {
                try changeScope(from: stored.syncScope, to: newScope, collection: descriptor.name, in: db, reasons: reasons)
            }
        }
        collections.set(descriptor)
    }

    /// Refuses a collection with more blob fields than the backend stores per object.
    ///
    /// - Throws: ``OfflineStoreError/Code/configuration``.
    private func checkBlobSupport(_ descriptor: CollectionDescriptor) throws {
        guard !descriptor.isLocalOnly, let backend = attachedBackend as? any BlobBackend,
              let limit = backend.maxBlobFieldsPerObject, descriptor.blobFields.count > limit else { return }
        throw OfflineStoreError(.configuration, "collection \(descriptor.name): the backend stores \(limit) blob field(s) per object, "
            + "\(descriptor.blobFields.count) are declared")
    }

    /// A collection's sync scope changed, inside the registering transaction: records what the
    /// next refresh must pull once (``ScopeRule/catchUp(from:to:)``) and removes the local
    /// copies the new scope does not hold (``removeDepartures(_:collection:in:reasons:)``).
    ///
    /// - Returns: how many local copies were removed.
    @discardableResult
    func changeScope(from old: ServerQuery?, to new: ServerQuery?, collection: String, in db: Database,
                     reasons: ChangeReasons) throws -> Int {
        var catchUp = ScopeRule.catchUp(from: old, to: new)
        // A catch-up still pending was computed for the scope in between: only a full pull covers both.
        if try CollectionsTable.scopeCatchUp(of: collection, in: db) != nil { catchUp = .fullPull }
        try CollectionsTable.setScopeCatchUp(catchUp, of: collection, in: db)
        guard let new else { return 0 }
        let departed = try ObjectRow.withServerCopy(db, in: collection).filter { !ScopeRule.contains(new, $0.persistent) }
        return try removeDepartures(departed, collection: collection, in: db, reasons: reasons)
    }

    /// Removes every local copy of the collection whose server copy does not match `scope` and
    /// that has nothing pending (``ScopeRule/departure(of:queued:)``), inside the caller's
    /// transaction: the end of every scoped refresh. The departure pull decides on the records
    /// that changed since the cursor, and keeps those with a pending edit; an edit that settles
    /// later may leave its object outside the scope at a version the cursor has passed (a
    /// resent create answered with the server's own copy, a conflict resolved with the server's
    /// copy), which no later departure pull lists. Checking the local copies here makes "a
    /// synced object outside the scope" last at most until the next refresh, whatever path it
    /// came by. Returns how many were removed.
    func removeSettledDepartures(scope: ServerQuery, collection: String, in db: Database,
                                 reasons: ChangeReasons) throws -> Int {
        let outside = try ObjectRow.withServerCopy(db, in: collection).filter { !ScopeRule.contains(scope, $0.persistent) }
        return try removeDepartures(outside, collection: collection, in: db, reasons: reasons)
    }

    /// Removes the local copies of `rows`, records that left their collection's scope, as
    /// ``ScopeRule/departure(of:queued:)`` says (``removeCopies(_:collection:reason:in:reasons:as:)``).
    func removeDepartures(_ rows: [ObjectRow], collection: String, in db: Database, reasons: ChangeReasons) throws -> Int {
        try Self.removeCopies(rows, collection: collection, reason: .leftScope, in: db, reasons: reasons,
                              as: ScopeRule.departure(of:queued:))
    }

    /// Removes the local copies of `rows` whose server records are gone from the collection
    /// (left its scope, or deleted without a tombstone), as `rule` decides from the row and
    /// whether it has queue entries: those with nothing pending go (observers see them go
    /// with `reason`); a pending edit, a failed entry or a conflict keeps its object. Inside
    /// the caller's transaction; returns how many were removed.
    static func removeCopies(_ rows: [ObjectRow], collection: String, reason: ObjectChange.Reason, in db: Database,
                             reasons: ChangeReasons, as rule: (ObjectRow, _ queued: Bool) -> ScopeRule.Departure) throws -> Int {
        var removed = 0
        for row in rows {
            let queued = try QueueTable.hasEntries(db, collection: collection, id: row.id)
            guard rule(row, queued) == .remove else { continue }
            try ObjectKeyedTables.removeObject(db, collection: collection, id: row.id)
            reasons.byObject[ObjectKey(collection: collection, id: row.id)] = reason
            removed += 1
        }
        return removed
    }
}

extension SyncEngine {
    /// Removes the local copies of records that changed since `cursor` and no longer match
    /// `scope` (``ScopeRule``): a light pull of ids and the scope's fields finds them.
    /// Tombstones are applied as deletions; records the scoped pull just brought stay, at the
    /// version it brought them. A change of such a record seen here at another version came
    /// after (this pull runs after the scoped one) and counts: a deletion during the scoped
    /// pull was skipped before, and lost for good when the cursor had already passed it.
    func pullDepartures(_ collection: CollectionDescriptor, scope: ServerQuery, since cursor: String?,
                                  delivered: [String: String], report: inout SyncReport) async throws {
        let fields = Array(Set(scope.terms.map(\.field))).sorted()
        var continuation: PullContinuation?
        repeat {
            if Task.isCancelled { throw CancellationError() }
            let page = try await backend.pull(PullRequest(collection: collection.name, cursor: cursor, continuation: continuation,
                                                          hints: .init(fields: fields)))
            let later = page.changes.filter { delivered[$0.id] != $0.version }
            let tombstones = later.filter { $0.record == nil }
            let departed = later.filter { $0.record != nil && !ScopeRule.contains(scope, $0.record) }
            if !tombstones.isEmpty {
                try apply(tombstones, cursor: nil, to: collection, report: &report)
            }
            if !departed.isEmpty { try await recogniseLateCreates(among: departed, of: collection, report: &report) }
            if !departed.isEmpty {
                let reasons = ChangeReasons()
                report.leftScope += try write("removing objects of \(collection.name) that left its scope", reasons: reasons) { db in
                    let rows = try departed.compactMap { try ObjectRow.fetch(db, collection: collection.name, id: $0.id) }
                    return try removeDepartures(rows, collection: collection.name, in: db, reasons: reasons)
                }
            }
            continuation = page.next
        } while continuation != nil
    }
}

extension SyncEngine {
    /// A create of ours whose answer was lost may land late outside the scope: the scoped pull
    /// never lists it and the departure pull lists its id and a few fields only, so the late-write
    /// recognition (``applyLateDelivery(_:watched:collection:report:notices:in:)``) never met it and
    /// an acknowledged delete stayed undone on the server. For each departed record whose id is
    /// watched, the whole record is fetched and goes through that recognition alone (a late
    /// delivery is deleted again; anything else is left to the departure, nothing is stored).
    func recogniseLateCreates(among departed: [RemoteChange], of collection: CollectionDescriptor,
                              report: inout SyncReport) async throws {
        guard watchesLateDeliveries else { return }
        let watched = try read("reading the watched creates of \(collection.name)") { db in
            Set(try LateDeliveryTable.watched(in: collection.name, in: db).map(\.objectID))
        }
        for change in departed where watched.contains(change.id) {
            guard let whole = try await backend.fetch(collection: collection.name, id: change.id) else { continue }
            var found = SyncReport()
            var notices = AppNotices()
            try write("recognising a late create of \(collection.name)") { db in
                var creates = try watchedCreates(in: collection.name, in: db)
                _ = try applyLateDelivery(whole, watched: &creates, collection: collection, report: &found, notices: &notices, in: db)
            }
            try deliver(notices, report: &found)
            report.addApplied(found)
        }
    }
}
