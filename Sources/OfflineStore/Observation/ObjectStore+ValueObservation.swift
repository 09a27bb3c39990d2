import Foundation
import GRDB

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
    public func observePendingCount() -> AsyncValueObservation<Int> {
        counted(ValueObservation.tracking { db in try QueueTable.count(db) }
            .removeDuplicates())
            .values(in: pool)
    }

    /// A GRDB observation of a value read from the store; `objects` changes are
    /// announced by the change log, which this installs.
    func observeValue<Value: Sendable & Equatable>(
        _ fetch: @escaping @Sendable (Database) throws -> Value
    ) -> AsyncValueObservation<Value> {
        local.installChangeLog()
        return counted(ValueObservation.tracking(fetch).removeDuplicates()).values(in: pool)
    }

    /// The observation, counted in ``StoreRuntime/valueObservers`` from its start until it
    /// ends: cancelled when the consumer stops iterating (GRDB then stops observing the
    /// database) or failed. While any runs, ``ExternalChangeWatcher`` makes them fetch
    /// again when another process commits to the store's file.
    private func counted<Reducer: ValueReducer>(_ observation: ValueObservation<Reducer>)
        -> ValueObservation<ValueReducers.Trace<Reducer>> {
        let observers = runtime.valueObservers, watcher = runtime.externalChanges
        let writer = pool, logger = configuration.logger
        let interval = isInMemory ? nil : configuration.externalChangeInterval
        return observation.handleEvents(
            willStart: {
                observers.withLock { $0 += 1 }
                watcher.observationStarted(writer: writer, interval: interval) { logger.debug("\($0)") }
            },
            didFail: { _ in
                observers.withLock { $0 -= 1 }
                watcher.observationEnded(interval: interval)
            },
            didCancel: {
                observers.withLock { $0 -= 1 }
                watcher.observationEnded(interval: interval)
            })
    }
}

extension ObjectCollection {
    /// The objects matching the query, as they change (see ``findAll(where:orderBy:limit:offset:)``).
    ///
    /// - Throws: while iterating, ``OfflineStoreError`` `invalidFieldPath` or `unknownCollection`
    ///   for a query that cannot run, or a storage error.
    public func observeAll(where condition: Condition? = nil, orderBy: [SortKey] = [],
                           limit: Int? = nil, offset: Int = 0) -> AsyncValueObservation<[JSONValue]> {
        let query = Result { try selectQuery(where: condition, state: nil, orderBy: orderBy, limit: limit, offset: offset) }
        return store.observeValue { db in try query.get().rows(db).compactMap(\.effective) }
    }

    /// One object with all its copies and flags (nil when absent), as it changes.
    public func observeObject(_ id: String) -> AsyncValueObservation<StoredObject?> {
        let name = self.name
        return store.observeValue { db in try ObjectRow.fetch(db, collection: name, id: id)?.publicObject }
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
