import Foundation
import GRDB

/// The app's actions on edits the server rejected (Docs/Errors.md; RhoConnect's create/update/delete errors).
///
/// A rejected entry stays in the queue as `failed`, with the server's status, body and
/// parsed per-field messages (``QueueEntry/validationMessages``), and later edits of its
/// object wait behind it, until the app acts:
///
/// | failed entry | actions |
/// |---|---|
/// | create | ``ObjectStore/retry(_:id:)`` or ``ObjectStore/discard(_:id:)`` |
/// | update or delete | ``ObjectStore/retry(_:id:)`` or ``ObjectStore/rollback(_:id:)`` |
///
/// ```swift
/// for entry in try store.failedEntries() {
///     print(entry.collection, entry.objectID, entry.validationMessages["title"])
/// }
/// try await todos.patch("a", ["title": "fixed"])   // queued behind the failed entry
/// try store.retry("todos", id: "a")                 // the next flush sends the current local copy
/// ```
/// ``ObjectStore/Configuration/failedEntryHandler`` can decide during the flush instead.
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
        try perform(.retry, on: collection, id: id)
    }

    /// Gives up a rejected update or delete: the local copy becomes the persistent
    /// (server) copy again and every queued edit of the object is dropped.
    ///
    /// - Throws: ``OfflineStoreError`` `unknownCollection`, `notFound` (no such object),
    ///   `invalidOperation` (no failed entry, an entry of the object is in flight, or the
    ///   failed entry is a create: use ``discard(_:id:)``).
    public func rollback(_ collection: String, id: String) throws {
        try perform(.rollback, on: collection, id: id)
    }

    /// Gives up a rejected create: the object is removed locally with every queued edit.
    ///
    /// - Throws: ``OfflineStoreError`` `unknownCollection`, `notFound` (no such object),
    ///   `invalidOperation` (no failed entry, an entry of the object is in flight, or the
    ///   failed entry is an update or delete: use ``rollback(_:id:)``).
    public func discard(_ collection: String, id: String) throws {
        try perform(.discard, on: collection, id: id)
    }

    /// Runs one error action on the object's failed entry; nothing changes when it is refused.
    ///
    /// - Throws: ``OfflineStoreError`` `unknownCollection`, `notFound`, `invalidOperation`
    ///   (no failed entry, something in flight, or an action not allowed for the entry's
    ///   kind — see ``FailedEntryAction/allowed(for:)``).
    public func perform(_ action: FailedEntryAction, on collection: String, id: String) throws {
        _ = try descriptor(of: collection)
        try write("\(action.rawValue) of \(collection)/\(id)") { db in
            try FailedEntryActions.perform(action, collection: collection, id: id, in: db)
        }
    }

    /// Queue entries that wait behind a failed entry or a conflict of the same object
    /// (Docs/Errors.md, "Held-back dependents"); they go out once the app acts.
    ///
    /// - Throws: a storage error.
    public func heldBackEntries() throws -> [QueueEntry] {
        try read("reading held-back entries") { db in
            try QueueTable.heldBack(db)
        }
    }
}

/// The app's actions on a failed entry, inside the caller's transaction (used by the public
/// actions and by the flush's failed-entry handler).
enum FailedEntryActions {
    /// The action, inside the caller's transaction, after checking it is allowed.
    static func perform(_ action: FailedEntryAction, collection: String, id: String, in db: Database) throws {
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
        guard failed.allowedActions.contains(action) else {
            let instead = failed.kind == .create
                ? "the server never had it: discard it or retry"
                : "the server has it: roll it back or retry"
            throw OfflineStoreError(.invalidOperation,
                "\(action.rawValue) does not apply to the failed \(failed.kind.rawValue) of \(collection)/\(id); \(instead)")
        }
        switch action {
        case .retry:
            try QueueTable.retry(failed.seq, in: db)
            guard row.state == .failed else { return }
            var row = row
            row.state = .synced
            row.deriveState()
            try row.save(db)
        case .rollback, .discard:
            try rollBack(db, collection: collection, id: id)
        }
    }

    /// Drops every queued edit of an object and restores its persistent copy.
    static func rollBack(_ db: Database, collection: String, id: String) throws {
        let entries = try QueueTable.entries(db, collection: collection, id: id)
        if entries.contains(where: { $0.state == .inFlight }) {
            throw OfflineStoreError(.invalidOperation, "\(collection)/\(id) is being sent; try again after the flush")
        }
        try QueueTable.removeAll(db, collection: collection, id: id)
        guard var row = try ObjectRow.fetch(db, collection: collection, id: id) else { return }
        if row.persistent == nil {
            try row.delete(db)
            return
        }
        row.state = .synced
        row.clearLocalEdit()
        try row.save(db)
    }
}
