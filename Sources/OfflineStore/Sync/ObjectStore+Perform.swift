import GRDB

extension ObjectStore {
    /// Runs an app edit under the write mode and update policy (Docs/Policies.md); `alongside` runs in
    /// the edit's transaction after the edit (e.g. a blob's row), so both commit or neither
    /// (it must let its errors escape: see ``writeEdit(_:_:)``).
    func perform(_ edit: LocalEdit, in name: String, policy override: UpdatePolicy?,
                 alongside: ((Database) throws -> Void)? = nil) async throws -> JSONValue? {
        let descriptor = try descriptor(of: name)
        let policy = effectiveUpdatePolicy(descriptor, override: override)
        let edit = try edit.withGeneratedID()
        let commitLocally = { try self.writeEdit("saving \(name)/\(edit.objectID)") { db in
            let result = try self.apply(edit, to: descriptor, in: db, isolation: .ownTransaction)
            try alongside?(db)
            return result
        } }

        if descriptor.isLocalOnly { return try commitLocally() }
        guard let engine, !isForcedOffline else {
            if policy == .updateIfOnline { throw Self.offlineError(name) }
            return try commitLocally()
        }
        if configuration.writeMode == .deferred {
            if policy == .updateIfOnline, let error = Self.onlineOnlyError(await reachability(), collection: name) { throw error }
            return try commitLocally()
        }

        // Immediate mode: commit locally (durable), then push the queue right away.
        let (snapshot, writtenRev) = try writeEdit("saving \(name)/\(edit.objectID)") { db -> (ObjectSnapshot, Int64?) in
            let before = try ObjectSnapshot.take(db, collection: name, id: edit.objectID)
            _ = try self.apply(edit, to: descriptor, in: db, isolation: .ownTransaction)
            try alongside?(db)
            return (before, try ObjectRow.fetch(db, collection: name, id: edit.objectID)?.localRev)
        }
        let stop = try await engine.flushForImmediateWrite()
        let (row, entries) = try read("reading \(name)/\(edit.objectID)") { db in
            // A create the server gave its own id is read under that id (the temporary one is gone).
            let id = try KeyedRows.serverID(db, for: edit.objectID, in: name) ?? edit.objectID
            return (try ObjectRow.fetch(db, collection: name, id: id), try QueueTable.entries(db, collection: name, id: id))
        }
        // The call succeeds only when the server applied the edit (nothing left queued).
        let failure: OfflineStoreError
        if let failed = entries.first(where: { $0.state == .failed }) {
            failure = OfflineStoreError(.failedEntry, "the server rejected the \(failed.kind.rawValue) of \(name)/\(edit.objectID)",
                                        status: failed.status, body: failed.responseBody)
        } else if row?.state == .conflicted {
            // The conflict is kept for the app to resolve, whatever the update policy.
            throw OfflineStoreError(.conflict, "\(name)/\(edit.objectID) conflicts with the server's version; resolve it")
        } else if !entries.isEmpty {
            failure = stop ?? OfflineStoreError(.conflict, "the server did not confirm \(name)/\(edit.objectID); the edit stays queued")
        } else {
            return row?.effective
        }
        if policy == .updateIfOnline {
            guard try undo(snapshot, ifStillAt: writtenRev) else {
                throw OfflineStoreError(failure.code, failure.message + "; the object changed meanwhile, so the edit stays queued",
                                        status: failure.status, body: failure.body, retryAfter: failure.retryAfter)
            }
            throw failure
        }
        if failure.code == .offline { return row?.effective }  // durable and queued, as the policy says
        throw failure
    }

    private static func offlineError(_ collection: String) -> OfflineStoreError {
        OfflineStoreError(.offline, "\(collection) updates only online and the server cannot be reached; nothing changed")
    }

    /// Puts the object and its queue entries back as they were before a failed online-only
    /// edit, unless anything else touched the object meanwhile (another edit, or a server
    /// answer applied): then nothing is undone and false is returned.
    private func undo(_ snapshot: ObjectSnapshot, ifStillAt revision: Int64?) throws -> Bool {
        try write("undoing an online-only edit") { db in
            let current = try ObjectRow.fetch(db, collection: snapshot.collection, id: snapshot.id)
            guard current?.localRev == revision, current?.persistent == snapshot.row?.persistent,
                  current?.serverVersion == snapshot.row?.serverVersion else { return false }
            try snapshot.restore(db)
            return true
        }
    }
}

extension LocalEdit {
    /// The edit with an explicit id (a new UUID for creates without one).
    func withGeneratedID() throws -> LocalEdit {
        switch self {
        case .create(let v):
            let id = try ObjectValidation.newID(for: v)
            return .create(v.settingID(id))
        case .save(let v, let known):
            let id = try ObjectValidation.newID(for: v)
            return .save(v.settingID(id), keeping: known)
        default: return self
        }
    }

    var objectID: String {
        switch self {
        case .create(let v), .save(let v, _): v["id"]?.stringValue ?? ""
        case .replace(let id, _), .patch(let id, _), .destroy(let id): id
        }
    }
}

extension JSONValue {
    func settingID(_ id: String) -> JSONValue {
        // Setting an equal id would copy the members (they are shared with `self`).
        guard case .object(var o) = self, o["id"] != .string(id) else { return self }
        o["id"] = .string(id)
        return .object(o)
    }
}

/// An object's row and queue entries as they were, to undo an edit that must not stay.
struct ObjectSnapshot: Sendable {
    let collection: String
    let id: String
    let row: ObjectRow?
    /// The object's entries, with what each was sent with.
    let entries: [QueueEntry]

    static func take(_ db: Database, collection: String, id: String) throws -> ObjectSnapshot {
        ObjectSnapshot(collection: collection, id: id, row: try ObjectRow.fetch(db, collection: collection, id: id),
                       entries: try QueueTable.entries(db, collection: collection, id: id))
    }

    func restore(_ db: Database) throws {
        try ObjectRow(collection: collection, id: id).delete(db)
        try QueueTable.removeAll(db, collection: collection, id: id)
        try row?.save(db)
        try QueueTable.restore(entries, in: db)
    }
}
