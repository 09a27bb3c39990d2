import Foundation

/// Object changes: an `AsyncSequence` of created / updated / deleted ids per collection,
/// with their origin (RhoConnect `setObjectNotification`).
///
/// ```swift
/// for await change in store.changes(in: "todos") {
///     print(change.kind, change.id, change.origin)   // e.g. updated a server
/// }
/// ```
///
/// A change is what the app sees: the object's value (local copy, else persistent copy)
/// appeared, changed or disappeared. A server answer that confirms a local edit without
/// changing it is no change. Changes are sent after their transaction committed, in
/// commit order.
///
/// How: from the first observer on, temporary triggers on the writer connection log every
/// change of `objects` into a temporary table (changes of state or copies that leave the
/// value as it was are logged as "touched": they wake query and flag observations but are
/// not object changes), which each write drains before it
/// commits (so a rolled-back write reports nothing). Until the first observer there are no
/// triggers and no cost; once installed they stay until the store closes.
extension ObjectStore {
    /// The changes of one collection (or of every collection) from now on; ends when the
    /// store closes or the consumer stops.
    public func changes(in collection: String? = nil) -> AsyncStream<ObjectChange> {
        let stream = observers.changes.subscribe { change in collection == nil || change.collection == collection }
        local.installChangeLog()
        return stream
    }
}

/// Sync events: an `AsyncSequence` of what flush, refresh and sync do (Docs/Observing.md).
///
/// ```swift
/// let events = store.syncEvents()          // subscribe before the run
/// Task {
///     for await event in events {
///         if case .progress(let p) = event { print(p.collection, p.processed, "/", p.total ?? -1) }
///     }
/// }
/// try await store.sync()
/// ```
///
/// Order in one run: `started`, then `progress` (one per pushed batch and per pulled
/// page), `conflict` and `failedEntry` as they are met, then `finished` with the report or
/// `error` with the reason it stopped. Immediate writes flush without `started`/`finished`
/// events; their conflicts and failed entries are still sent.
extension ObjectStore {
    /// A stream of every sync event from now on; it ends when the store closes or the
    /// consumer stops iterating. Buffered without limit, so nothing is dropped.
    public func syncEvents() -> AsyncStream<SyncEvent> {
        observers.events.subscribe()
    }
}


/// Commits: an `AsyncSequence` that says when the store's file changed, whoever wrote it.
///
/// ```swift
/// for await commit in store.commits() {
///     if commit == .otherConnection { reloadEverything() }   // e.g. the share extension wrote
/// }
/// ```
///
/// One element per committed write of this store (a write that changed nothing sends none),
/// and one each time the store notices that other connections committed: it looks every
/// ``ObjectStore/Configuration/externalChangeInterval`` while a commit stream or a value
/// observation runs (several commits in between are one element). An in-memory store, or a
/// nil interval, reports its own commits only.
extension ObjectStore {
    /// A stream of the store's commits from now on; it ends when the store closes or the
    /// consumer stops iterating. Buffered without limit, so nothing is dropped.
    public func commits() -> AsyncStream<StoreCommit> {
        let local = self.local
        local.externalChangeWatchStarted()
        return observers.commits.subscribe(onEnd: { local.externalChangeWatchEnded() })
    }
}

/// Observing values as they change (Firestore snapshot listeners), with GRDB's
/// `ValueObservation` underneath: each sequence yields the current value first, then a
/// new value after every committed write that changed it (equal values are not repeated).
///
/// ```swift
/// for try await open in store.collection("todos").observeAll(where: .equal("done", false)) {
///     render(open)
/// }
/// for try await pending in store.observePendingCount() { badge = pending }
/// ```
extension ObjectStore {
    /// The number of queue entries the server has not confirmed (pending, in flight or failed), as it changes.
    public func observePendingCount() -> StoreObservation<Int> {
        local.observeQueueCount()
    }
}

extension ObjectCollection {
    /// The objects matching the query, as they change (see ``findAll(where:orderBy:limit:offset:)``).
    ///
    /// - Throws: while iterating, ``OfflineStoreError`` `invalidFieldPath` or `unknownCollection`
    ///   for a query that cannot run, or a storage error.
    public func observeAll(where condition: Condition? = nil, orderBy: [SortKey] = [],
                           limit: Int? = nil, offset: Int = 0) -> StoreObservation<[JSONValue]> {
        let query = Result { try selectQuery(where: condition, state: nil, orderBy: orderBy, limit: limit, offset: offset) }
        return store.local.observe { db in try query.get().rows(db).compactMap(\.effective) }
    }

    /// One object with all its copies and flags (nil when absent), as it changes.
    public func observeObject(_ id: String) -> StoreObservation<StoredObject?> {
        store.local.observeStoredObject(collection: name, id: id)
    }
}

extension StoredObject {
    /// Whether an edit of this object waits to be sent (or was sent and is unconfirmed).
    public var hasPendingWrites: Bool { hasLocalEdit || state == .created || state == .updated || state == .deleted }
    /// Whether the object is conflicted and waits for the app to resolve it.
    public var hasConflict: Bool { state == .conflicted }
    /// Whether the server rejected the object's edit and the failed entry waits for an action.
    public var hasFailedWrite: Bool { state == .failed }
}
