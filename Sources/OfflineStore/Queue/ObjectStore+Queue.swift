import Foundation

extension ObjectStore {
    /// The queue's entries in FIFO order, optionally only one collection's or one object's.
    public func queueEntries(collection: String? = nil, id: String? = nil) throws -> [QueueEntry] {
        try local.queueEntries(.matching(collection: collection, id: id), "reading the queue")
    }

    /// How many entries the queue holds, optionally only those in one state.
    public func queueCount(state: QueueEntry.State? = nil) throws -> Int {
        try local.queueCount(state: state)
    }

    /// Whether anything in the store waits to be sent (or was rejected and waits for the app).
    public func isChanged() throws -> Bool { try queueCount() > 0 }

    /// Cancels a queued entry: every unsent edit of its object is dropped and the
    /// object rolls back to its persistent copy (it disappears if the server never had it).
    ///
    /// - Throws: ``OfflineStoreError`` `notFound` for an unknown entry, `invalidOperation`
    ///   while an entry of the object is in flight.
    public func cancel(entry seq: Int64) throws {
        try editEngine.cancel(entry: seq)
    }

    /// The objects left conflicted, with base, local and server copies, optionally of one collection.
    ///
    /// Conflicts are stored, so they survive restarts until resolved.
    public func conflicts(in collection: String? = nil) throws -> [Conflict] {
        try local.conflictedRows(in: collection).map(ConflictRule.conflict(of:))
    }

    /// Resolves a conflicted object: `.keepLocal` resends the local edit on the server's
    /// version, `.keepServer` drops it, `.merged(json)` queues that object as an update
    /// on the server's version. Send with `flush` or `sync`.
    ///
    /// - Throws: ``OfflineStoreError`` `notFound`, `notConflicted`, or a validation error for merged JSON.
    public func resolve(_ collection: String, id: String, with resolution: Resolution) throws {
        try editEngine.resolve(collection, id: id, with: resolution)
    }
}

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
        try local.queueEntries(.failed(collection: collection), "reading failed entries")
    }

    /// Sends a rejected edit again with the next flush.
    ///
    /// The failed entry becomes pending (attempts kept) and forgets its payload: the next flush
    /// sends the current local copy (fix it first if the server refused its content); once the
    /// object is deleted, the queued delete (nothing, for a create the server never had).
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
        try editEngine.act(action, on: collection, id: id)
    }

    /// Queue entries that wait behind a failed entry or a conflict of the same object
    /// (Docs/Errors.md, "Held-back dependents"); they go out once the app acts.
    ///
    /// - Throws: a storage error.
    public func heldBackEntries() throws -> [QueueEntry] {
        try local.queueEntries(.heldBack, "reading held-back entries")
    }
}
