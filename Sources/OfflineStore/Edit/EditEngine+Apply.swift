import Foundation
import GRDB

/// One edit's checks and writes, inside the caller's transaction (Docs/Architecture.md, "An edit").
extension EditEngine {
    /// Applies an edit inside a write transaction: the object row and its queue entry
    /// are written together or not at all (see ``EditIsolation``). Returns the object as
    /// the app now sees it (nil after a delete): callers that discard it pay for no ``StoredObject``.
    func apply(_ edit: LocalEdit, to collection: CollectionDescriptor, in db: Database,
               isolation: EditIsolation) throws -> JSONValue? {
        // A failed edit wrote nothing that stays (a failure half-written rolls its transaction back).
        try OfflineStoreError.refusingEdit {
            switch isolation {
            case .ownTransaction:
                return try applyWithinSizeLimit(edit, to: collection, in: db, latch: nil)
            case .shared(let latch):
                try latch.check()
                return try applyWithinSizeLimit(edit, to: collection, in: db, latch: latch)
            case .savepoint:
                return try local.inEditSavepoint(db) {
                    try applyWithinSizeLimit(edit, to: collection, in: db, latch: nil)
                }
            }
        }
    }

    private func applyWithinSizeLimit(_ edit: LocalEdit, to collection: CollectionDescriptor, in db: Database,
                                      latch: RollbackLatch?) throws -> JSONValue? {
        try local.collections.checkWritable(collection.name)
        let sizeBefore = try local.sizeBeforeWrite(db)
        let result = try applyEdit(edit, to: collection, in: db, latch: latch)
        // After the writes: a refusal here must undo them too.
        try guarding(latch) { try local.enforceStoreSize(db, before: sizeBefore) }
        return result
    }

    /// Runs an edit's writes, tripping `latch` (when there is one) if they fail.
    private func guarding<T>(_ latch: RollbackLatch?, _ writes: () throws -> T) throws -> T {
        guard let latch else { return try writes() }
        return try latch.guarding(writes)
    }

    /// A create of an object that has no row: checked, then its row inserted without probing
    /// first (one index descent instead of two) and its create queued (an object without a
    /// row has no queue entries to coalesce with: they would be orphans, which the resets
    /// remove, see `ObjectKeyedTables`). Returns nil, having written nothing, when a row exists
    /// (a conflict, or a local tombstone the create turns into an update): the general path decides.
    private func createIfNew(_ value: JSONValue, id: String, in collection: CollectionDescriptor, now: Date,
                             db: Database, latch: RollbackLatch?) throws -> JSONValue? {
        let members = try ObjectValidation.members(of: value, id: id)
        try collection.validate(members)
        var object = ObjectRow(collection: collection.name, id: id)
        object.beginLocalEdit()
        object.local = .object(members)
        object.deriveState()
        // Every check is done: from here on only SQLite (or an injected fault) can fail.
        return try guarding(latch) {
            guard try local.insertIfNew(object, in: db) else { return nil }
            try configuration.faults.afterObjectWrite?(collection.name, id)
            try QueueStep.record(.append, of: object, kind: .create, now: now, in: db, local: local)
            return object.local
        }
    }

    /// Checks the edit, decides its queue step, then writes: nothing is written before
    /// every check has passed (see ``EditIsolation``).
    private func applyEdit(_ edit: LocalEdit, to collection: CollectionDescriptor, in db: Database,
                           latch: RollbackLatch?) throws -> JSONValue? {
        let now = configuration.now()
        let id: String
        switch edit {
        case .create(let v), .save(let v, _): id = try ObjectValidation.newID(for: v)
        case .replace(let i, _), .patch(let i, _), .destroy(let i): id = i
        }
        try ObjectValidation.validateID(id, collection: collection.name, backend: collection.isLocalOnly ? nil : backend)
        if case .create(let value) = edit, !collection.isLocalOnly,
           let created = try createIfNew(value, id: id, in: collection, now: now, db: db, latch: latch) {
            return created
        }
        let row = try local.row(db, collection: collection.name, id: id)

        // The new effective value, or nil for a delete.
        let newValue: [String: JSONValue]?
        let kind: QueueEntry.Kind
        switch edit {
        case .create(let v):
            if row?.exists == true { throw OfflineStoreError(.alreadyExists, "object \(collection.name)/\(id) already exists") }
            newValue = try ObjectValidation.members(of: v, id: id)
            kind = .create
        case .save(let v, let known):
            var members = try ObjectValidation.members(of: v, id: id)
            if let known, let current = row?.effective?.objectValue {
                for (key, value) in current where members[key] == nil && !known.contains(key) { members[key] = value }
            }
            newValue = members
            kind = row?.exists == true ? .update : .create
        case .replace(_, let v):
            guard row?.exists == true else { throw OfflineStoreError(.notFound, "object \(collection.name)/\(id) does not exist") }
            newValue = try ObjectValidation.members(of: v, id: id)
            kind = .update
        case .patch(_, let fields):
            guard let current = row?.effective?.objectValue else {
                throw OfflineStoreError(.notFound, "object \(collection.name)/\(id) does not exist")
            }
            var merged = current
            for (key, value) in fields where key != "id" {
                if value == .null { merged[key] = nil } else { merged[key] = value }
            }
            newValue = try ObjectValidation.members(of: .object(merged), id: id)
            kind = .update
        case .destroy:
            guard row?.exists == true else { throw OfflineStoreError(.notFound, "object \(collection.name)/\(id) does not exist") }
            newValue = nil
            kind = .delete
        }
        if let newValue { try collection.validate(newValue) }

        if collection.isLocalOnly {
            return try guarding(latch) { try applyLocalOnly(row: row, collection: collection.name, id: id, value: newValue, db: db) }
        }
        // An object without a row has no queue entries (entries of a missing object are
        // orphans, which the resets remove: ObjectKeyedTables), so a new object's edit is appended
        // without probing the queue: one index probe per create instead of two.
        let step = row == nil ? QueueStep.append
            : try QueueStep.decide(after: local.lastQueueEntry(db, collection: collection.name, id: id),
                                   collection: collection.name, id: id, kind: kind)

        // A create over a local tombstone is queued as a create: coalesced with the
        // pending delete it becomes an update (delete + create → update).
        var object = row ?? ObjectRow(collection: collection.name, id: id)
        object.beginLocalEdit()
        object.local = newValue.map(JSONValue.object)
        object.deriveState()

        // Every check is done: from here on only SQLite (or an injected fault) can fail.
        return try guarding(latch) {
            try local.save(object, in: db)
            try configuration.faults.afterObjectWrite?(collection.name, id)
            try QueueStep.record(step, of: object, kind: kind, now: now, in: db, local: local)
            if step.cancels, object.persistent == nil, object.serverVersion == nil,
               try QueueTable.latest(db, collection: collection.name, id: id) == nil {
                try object.delete(db)
                return nil
            }
            // Dirty after the edit: what the app sees is the local copy (nil for a delete).
            return object.local
        }
    }

    /// Local-only collections have no server: edits commit straight to the stored copy.
    private func applyLocalOnly(row: ObjectRow?, collection: String, id: String,
                                value: [String: JSONValue]?, db: Database) throws -> JSONValue? {
        var object = row ?? ObjectRow(collection: collection, id: id)
        guard let value else {
            try object.delete(db)
            return nil
        }
        object.persistent = .object(value)
        object.state = .synced
        try local.save(object, in: db)
        try configuration.faults.afterObjectWrite?(collection, id)
        return object.publicObject.value
    }
}
