import GRDB

extension ObjectStore {
    /// Runs an app edit under the write mode and update policy (SPEC §4).
    func perform(_ edit: LocalEdit, in name: String, policy override: UpdatePolicy?) async throws -> JSONValue? {
        let descriptor = try descriptor(of: name)
        let policy = effectiveUpdatePolicy(descriptor, override: override)
        let edit = try edit.withGeneratedID()
        let commitLocally = { try self.write("saving \(name)/\(edit.objectID)") { db in try self.apply(edit, to: descriptor, in: db) } }

        if descriptor.isLocalOnly { return try commitLocally()?.value }
        guard backend != nil, !isForcedOffline else {
            if policy == .updateIfOnline { throw Self.offlineError(name) }
            return try commitLocally()?.value
        }
        if configuration.writeMode == .deferred {
            if policy == .updateIfOnline, !(await isReachable()) { throw Self.offlineError(name) }
            return try commitLocally()?.value
        }

        // Immediate mode: commit locally (durable), then push the queue right away.
        let snapshot = try write("saving \(name)/\(edit.objectID)") { db -> ObjectSnapshot in
            let before = try ObjectSnapshot.take(db, collection: name, id: edit.objectID)
            _ = try self.apply(edit, to: descriptor, in: db)
            return before
        }
        let stop = try await flushForImmediateWrite()
        let after = try read("reading \(name)/\(edit.objectID)") { db in
            (try ObjectRow.fetch(db, collection: name, id: edit.objectID),
             try QueueTable.entries(db, collection: name, id: edit.objectID))
        }
        let (row, entries) = after
        if let failed = entries.first(where: { $0.state == .failed }) {
            if policy == .updateIfOnline { try undo(snapshot) }
            throw OfflineStoreError(.failedEntry, "the server rejected the \(failed.kind.rawValue) of \(name)/\(edit.objectID)",
                                    status: failed.status, body: failed.responseBody)
        }
        if row?.state == .conflicted {
            throw OfflineStoreError(.conflict, "\(name)/\(edit.objectID) conflicts with the server's version; resolve it")
        }
        if !entries.isEmpty, let stop {
            if policy == .updateIfOnline {
                try undo(snapshot)
                throw stop
            }
            if stop.code != .offline { throw stop }
        }
        return row?.effective
    }

    private static func offlineError(_ collection: String) -> OfflineStoreError {
        OfflineStoreError(.offline, "\(collection) updates only online and the server cannot be reached; nothing changed")
    }

    /// Puts the object and its queue entries back as they were before a failed online-only edit.
    private func undo(_ snapshot: ObjectSnapshot) throws {
        try write("undoing an online-only edit") { db in try snapshot.restore(db) }
    }
}

extension LocalEdit {
    /// The edit with an explicit id (a new UUID for creates without one).
    func withGeneratedID() throws -> LocalEdit {
        switch self {
        case .create(let v):
            let id = try ObjectValidation.newID(for: v)
            return .create(v.settingID(id))
        case .save(let v):
            let id = try ObjectValidation.newID(for: v)
            return .save(v.settingID(id))
        default: return self
        }
    }

    var objectID: String {
        switch self {
        case .create(let v), .save(let v): v["id"]?.stringValue ?? ""
        case .replace(let id, _), .patch(let id, _), .destroy(let id): id
        }
    }
}

extension JSONValue {
    func settingID(_ id: String) -> JSONValue {
        guard case .object(var o) = self else { return self }
        o["id"] = .string(id)
        return .object(o)
    }
}

/// An object's row and queue entries as they were, to undo an edit that must not stay.
struct ObjectSnapshot: Sendable {
    let collection: String
    let id: String
    let row: ObjectRow?
    let entries: [QueueEntry]
    let sentRevs: [Int64: Int64?]

    static func take(_ db: Database, collection: String, id: String) throws -> ObjectSnapshot {
        let entries = try QueueTable.entries(db, collection: collection, id: id)
        var sentRevs: [Int64: Int64?] = [:]
        for e in entries {
            sentRevs[e.seq] = try Int64?.fetchOne(db, sql: "SELECT sent_rev FROM queue WHERE seq = ?", arguments: [e.seq])
        }
        return ObjectSnapshot(collection: collection, id: id, row: try ObjectRow.fetch(db, collection: collection, id: id),
                              entries: entries, sentRevs: sentRevs)
    }

    func restore(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM objects WHERE collection = ? AND id = ?", arguments: [collection, id])
        try QueueTable.removeAll(db, collection: collection, id: id)
        try row?.save(db)
        for e in entries {
            try db.execute(sql: """
                INSERT INTO queue(seq, collection, object_id, kind, base_version, idempotency_key, attempts, last_error,
                status, response_body, state, sent_rev, created_at, not_before) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)
                """, arguments: [e.seq, e.collection, e.objectID, e.kind.rawValue, e.baseVersion, e.idempotencyKey,
                                 e.attempts, e.lastError, e.status, e.responseBody, e.state.rawValue, sentRevs[e.seq] ?? nil,
                                 e.createdAt.timeIntervalSince1970, e.notBefore?.timeIntervalSince1970])
        }
    }
}
