import Foundation
import GRDB

extension ObjectStore {
    /// The conflict of a row whose persistent copy and server version already hold the server's state.
    static func conflict(of row: ObjectRow) -> Conflict {
        Conflict(collection: row.collection, id: row.id, base: row.base,
                 local: row.isLocallyDeleted ? nil : row.local, server: row.persistent, serverVersion: row.serverVersion)
    }

    /// What the collection's policy says about a conflict. Identical local and server
    /// copies (both deleted, or the same edit made twice) are no conflict: the server's stands.
    static func decide(_ conflict: Conflict, policy: ConflictPolicy) -> Resolution {
        if conflict.local == conflict.server { return .keepServer }
        switch policy {
        case .preserveConflict: return .preserve
        case .clientWins: return .keepLocal
        case .serverWins: return .keepServer
        case .merge:
            return ThreeWayMerge.merge(base: conflict.base, local: conflict.local, server: conflict.server)
                .map(Resolution.merged) ?? .preserve
        case .custom(let resolver): return resolver(conflict)
        }
    }

    /// How a conflict ended.
    enum Settlement {
        /// Local and server copies were identical: no conflict at all.
        case identical
        /// The policy settled it.
        case resolved
        /// Kept for the app (preserveConflict, a merge clash, or a resolver's unusable answer).
        case preserved
    }

    /// Settles a conflict on `row` by the collection's policy, inside the caller's transaction.
    ///
    /// A resolver's merged object that breaks the id or schema cannot be sent: the conflict
    /// is preserved for the app instead, so one bad answer never blocks the queue.
    @discardableResult
    func settleConflict(_ db: Database, row: ObjectRow, policy: ConflictPolicy) throws -> Settlement {
        let conflict = ObjectStore.conflict(of: row)
        if conflict.local == conflict.server {
            try apply(.keepServer, to: row, in: db)
            return .identical
        }
        emit(.conflict(conflict))
        let resolution = ObjectStore.decide(conflict, policy: policy)
        if case .merged = resolution {
            do {
                try db.inSavepoint {
                    try apply(resolution, to: row, in: db)
                    return .commit
                }
                return .resolved
            } catch let error as OfflineStoreError where [.invalidID, .invalidJSON, .schemaViolation].contains(error.code) {
                configuration.logger.warning("conflict resolver gave an unusable object; conflict preserved",
                                             metadata: ["collection": "\(row.collection)", "reason": "\(error.message)"])
                try apply(.preserve, to: row, in: db)
                return .preserved
            }
        }
        try apply(resolution, to: row, in: db)
        return resolution == .preserve ? .preserved : .resolved
    }

    /// Applies a resolution to a row whose persistent copy is the server's current state.
    func apply(_ resolution: Resolution, to original: ObjectRow, in db: Database) throws {
        var row = original
        let entries = try QueueTable.entries(db, collection: row.collection, id: row.id)
        switch resolution {
        case .preserve:
            row.state = .conflicted
            try row.save(db)
            try db.execute(sql: "UPDATE queue SET state = 'pending' WHERE collection = ? AND object_id = ? AND state = 'in-flight'",
                           arguments: [row.collection, row.id])
        case .keepServer:
            try QueueTable.removeAll(db, collection: row.collection, id: row.id)
            if row.persistent == nil { try row.delete(db); return }
            row.state = .synced
            row.clearLocalEdit()
            try row.save(db)
        case .keepLocal:
            try resend(local: row.isLocallyDeleted ? nil : row.local, row: &row, entries: entries, db: db)
        case .merged(let value):
            let members = try ObjectValidation.members(of: value, id: row.id)
            try descriptor(of: row.collection).validate(members)
            try resend(local: .object(members), row: &row, entries: entries, db: db)
        }
    }

    /// Queues the local copy again on top of the server's version, in the place of the
    /// object's first entry (so the store-wide order is kept).
    private func resend(local: JSONValue?, row: inout ObjectRow, entries: [QueueEntry], db: Database) throws {
        let kind: QueueEntry.Kind?
        switch (local, row.persistent) {
        case (nil, nil): kind = nil
        case (nil, _?): kind = .delete
        case (_?, nil): kind = .create
        case (_?, _?): kind = .update
        }
        guard let kind else { try apply(.keepServer, to: row, in: db); return }
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
            try db.execute(sql: """
                UPDATE queue SET kind = ?, base_version = ?, state = 'pending', last_error = NULL, status = NULL, sent_data = NULL,
                response_body = NULL, attempts = 0, idempotency_key = ? WHERE seq = ?
                """, arguments: [kind.rawValue, version, UUID().uuidString.lowercased(), first.seq])
        } else {
            try QueueTable.append(db, collection: row.collection, id: row.id, kind: kind, baseVersion: version,
                                  now: configuration.now())
        }
    }
}
