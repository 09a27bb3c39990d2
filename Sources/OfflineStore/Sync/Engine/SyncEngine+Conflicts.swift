import Foundation
import GRDB

extension SyncEngine {
    /// How a conflict ended.
    enum Settlement {
        /// Local and server copies were identical: no conflict at all.
        case identical
        /// The policy settled it.
        case resolved
        /// Kept for the app (preserveConflict, a merge clash, an unusable merged object, or
        /// waiting for the custom resolver, which is asked after the commit).
        case preserved
    }

    /// Settles a conflict on `row` by the collection's policy (``ConflictRule``), inside the
    /// caller's transaction. The `conflict` event, and a custom resolver's decision, wait in
    /// `notices` for the commit.
    ///
    /// A merged object that breaks the id or schema cannot be sent: the conflict is
    /// preserved for the app instead, so one bad answer never blocks the queue.
    @discardableResult
    func settleConflict(_ db: Database, row: ObjectRow, policy: ConflictPolicy,
                        notices: inout AppNotices) throws -> Settlement {
        let conflict = ConflictRule.conflict(of: row)
        if conflict.local == conflict.server {
            try ConflictWrites.write(.keepServer, to: row, in: db, now: configuration.now())
            return .identical
        }
        notices.events.append(.conflict(conflict))
        guard let resolution = ConflictRule.decide(conflict, policy: policy) else {
            try ConflictWrites.write(.preserve, to: row, in: db, now: configuration.now())
            if case .custom(let resolver) = policy {
                notices.customConflicts.append(AppNotices.CustomConflict(conflict: conflict, localRev: row.localRev, resolver: resolver))
            }
            return .preserved
        }
        return try settle(row, with: resolution, in: db)
    }

    /// Applies a resolution; an unusable merged object preserves the conflict instead.
    func settle(_ row: ObjectRow, with resolution: Resolution, in db: Database) throws -> Settlement {
        if case .merged = resolution {
            do {
                let descriptor = try descriptor(of: row.collection)
                try db.inSavepoint {
                    try ConflictWrites.write(resolution, to: row, validatingWith: descriptor, in: db, now: configuration.now())
                    return .commit
                }
                return .resolved
            } catch let error as OfflineStoreError where [.invalidID, .invalidJSON, .schemaViolation].contains(error.code) {
                configuration.logger.warning("conflict resolver gave an unusable object; conflict preserved",
                                             metadata: ["collection": "\(row.collection)", "reason": "\(error.message)"])
                try ConflictWrites.write(.preserve, to: row, in: db, now: configuration.now())
                return .preserved
            }
        }
        try ConflictWrites.write(resolution, to: row, in: db, now: configuration.now())
        return resolution == .preserve ? .preserved : .resolved
    }
}

/// Writing a conflict's resolution to the object and its queue entries, inside the
/// caller's transaction: used by the engine's policies and by ``ObjectStore/resolve(_:id:with:)``.
enum ConflictWrites {
    /// Writes a resolution to a row whose persistent copy is the server's current state;
    /// a merged object is validated against `descriptor` first.
    static func write(_ resolution: Resolution, to original: ObjectRow, validatingWith descriptor: CollectionDescriptor? = nil,
                      in db: Database, now: Date) throws {
        var row = original
        let entries = try QueueTable.entries(db, collection: row.collection, id: row.id)
        switch resolution {
        case .preserve:
            row.state = .conflicted
            try row.save(db)
            try QueueTable.requeueAll(db, collection: row.collection, id: row.id)
        case .keepServer:
            try QueueTable.removeAll(db, collection: row.collection, id: row.id)
            if row.persistent == nil { try row.delete(db); return }
            row.state = .synced
            row.clearLocalEdit()
            try row.save(db)
        case .keepLocal:
            try resend(local: row.isLocallyDeleted ? nil : row.local, row: &row, entries: entries, db: db, now: now)
        case .merged(let value):
            let members = try ObjectValidation.members(of: value, id: row.id)
            try descriptor?.validate(members)
            try resend(local: .object(members), row: &row, entries: entries, db: db, now: now)
        }
    }

    /// Queues the local copy again on top of the server's version, in the place of the
    /// object's first entry (so the store-wide order is kept).
    private static func resend(local: JSONValue?, row: inout ObjectRow, entries: [QueueEntry], db: Database, now: Date) throws {
        let kind: QueueEntry.Kind?
        switch (local, row.persistent) {
        case (nil, nil): kind = nil
        case (nil, _?): kind = .delete
        case (_?, nil): kind = .create
        case (_?, _?): kind = .update
        }
        guard let kind else { try write(.keepServer, to: row, in: db, now: now); return }
        row.local = local
        row.dirty = true
        row.base = row.persistent
        row.baseVersion = row.serverVersion
        row.localRev += 1
        row.state = .synced
        row.deriveState()
        try row.save(db)
        let version = kind == .create ? nil : row.serverVersion
        if let first = entries.first {
            for extra in entries.dropFirst() { try QueueTable.remove(db, seq: extra.seq) }
            try QueueTable.resend(first.seq, kind: kind, baseVersion: version, in: db)
        } else {
            try QueueTable.append(db, collection: row.collection, id: row.id, kind: kind, baseVersion: version, now: now)
        }
    }
}
