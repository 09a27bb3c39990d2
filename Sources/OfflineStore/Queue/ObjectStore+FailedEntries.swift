import GRDB

/// The app's actions on edits the server rejected (SPEC §8, RhoConnect's create/update/delete errors).
///
/// A rejected entry stays in the queue as `failed`, with the server's status and body,
/// and later edits of its object wait behind it, until the app acts:
///
/// | failed entry | actions |
/// |---|---|
/// | create (the server never had the object) | ``ObjectStore/retry(_:id:)`` or ``ObjectStore/discard(_:id:)`` |
/// | update or delete | ``ObjectStore/retry(_:id:)`` or ``ObjectStore/rollback(_:id:)`` |
///
/// ```swift
/// for entry in try store.failedEntries() {
///     print(entry.collection, entry.objectID, entry.status ?? 0, entry.responseBody ?? "")
/// }
/// try await todos.patch("a", ["title": "fixed"])   // queued behind the failed entry
/// try store.retry("todos", id: "a")                 // the next flush sends the current local copy
/// ```
extension ObjectStore {
    /// The failed queue entries in FIFO order, optionally only one collection's.
    ///
    /// - Throws: a storage error.
    public func failedEntries(collection: String? = nil) throws -> [QueueEntry] {
        try read("reading failed entries") { db in
            if let collection {
                return try QueueTable.fetch(db, where: "state = 'failed' AND collection = ?", arguments: [collection])
            }
            return try QueueTable.fetch(db, where: "state = 'failed'")
        }
    }

    /// Sends a rejected edit again with the next flush.
    ///
    /// The object's failed entry becomes pending (its attempt count is kept) and forgets
    /// the payload it was sent with, so the next flush sends the object's current local
    /// copy — fix the object first (e.g. with `patch`) when the server refused its content.
    ///
    /// - Throws: ``OfflineStoreError`` `unknownCollection`, `notFound` (no such object),
    ///   `invalidOperation` (the object has no failed entry).
    public func retry(_ collection: String, id: String) throws {
        try withFailedEntry(collection, id: id, action: "retrying") { db, row, entry in
            try db.execute(sql: """
                UPDATE queue SET state = 'pending', sent_data = NULL, sent_rev = NULL, not_before = NULL WHERE seq = ?
                """, arguments: [entry.seq])
            guard row.state == .failed else { return }
            var row = row
            row.state = .synced
            row.deriveState()
            try row.save(db)
        }
    }

    /// Gives up a rejected update or delete: the local copy becomes the persistent
    /// (server) copy again and every queued edit of the object is dropped.
    ///
    /// - Throws: ``OfflineStoreError`` `unknownCollection`, `notFound` (no such object),
    ///   `invalidOperation` (no failed entry, an entry of the object is in flight, or the
    ///   server never had the object: use ``discard(_:id:)``).
    public func rollback(_ collection: String, id: String) throws {
        try withFailedEntry(collection, id: id, action: "rolling back") { db, row, _ in
            guard row.persistent != nil else {
                throw OfflineStoreError(.invalidOperation,
                    "\(collection)/\(id) is not on the server, so there is nothing to roll back to: discard it instead")
            }
            try rollBack(db, collection: collection, id: id)
        }
    }

    /// Gives up a rejected create: the object is removed locally with every queued edit.
    ///
    /// - Throws: ``OfflineStoreError`` `unknownCollection`, `notFound` (no such object),
    ///   `invalidOperation` (no failed entry, an entry of the object is in flight, or the
    ///   server has the object: use ``rollback(_:id:)``).
    public func discard(_ collection: String, id: String) throws {
        try withFailedEntry(collection, id: id, action: "discarding") { db, row, _ in
            guard row.persistent == nil else {
                throw OfflineStoreError(.invalidOperation,
                    "\(collection)/\(id) exists on the server: roll it back instead (or delete it)")
            }
            try rollBack(db, collection: collection, id: id)
        }
    }

    /// Runs `body` in one write transaction with the object's row and its failed entry,
    /// after checking that both exist and nothing of the object is in flight.
    private func withFailedEntry(_ collection: String, id: String, action: String,
                                 _ body: (Database, ObjectRow, QueueEntry) throws -> Void) throws {
        _ = try descriptor(of: collection)
        try write("\(action) \(collection)/\(id)") { db in
            guard let row = try ObjectRow.fetch(db, collection: collection, id: id) else {
                throw OfflineStoreError(.notFound, "\(collection)/\(id) does not exist")
            }
            let entries = try QueueTable.entries(db, collection: collection, id: id)
            guard let failed = entries.first(where: { $0.state == .failed }) else {
                throw OfflineStoreError(.invalidOperation,
                    "\(collection)/\(id) has no failed entry to act on (it is \(row.state.rawValue))")
            }
            if entries.contains(where: { $0.state == .inFlight }) {
                throw OfflineStoreError(.invalidOperation, "\(collection)/\(id) is being sent; try again after the flush")
            }
            try body(db, row, failed)
        }
    }
}
