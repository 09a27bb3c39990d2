import GRDB

/// What the facade and its collection handles ask of the store, named by intention: they
/// forward to these and never read or write a table themselves.
extension LocalStore {
    /// The queue's entries that `selection` picks, in FIFO order; `action` names the read in
    /// a storage error.
    func queueEntries(_ selection: QueueTable.Selection, _ action: String) throws -> [QueueEntry] {
        try read(action) { db in try QueueTable.entries(db, selection) }
    }

    /// How many entries the queue holds, optionally only those in one state.
    func queueCount(state: QueueEntry.State? = nil) throws -> Int {
        try read("counting the queue") { db in try QueueTable.count(db, state: state) }
    }

    /// Whether the collection (or one object of it) has queue entries.
    func hasQueueEntries(collection: String, id: String? = nil) throws -> Bool {
        try read("reading \(collection)\(id.map { "/\($0)" } ?? "")") { db in
            try QueueTable.hasEntries(db, collection: collection, id: id)
        }
    }

    /// The conflicted objects' rows, optionally of one collection.
    func conflictedRows(in collection: String?) throws -> [ObjectRow] {
        try read("listing conflicts") { db in try ObjectRow.conflicted(db, in: collection) }
    }

    /// How many objects of the collection are in each sync state.
    func stateCounts(in collection: String) throws -> [SyncState: Int] {
        try read("counting \(collection) by state") { db in try ObjectRow.stateCounts(db, in: collection) }
    }

    /// The object with all its copies and its sync state, or nil.
    func storedObject(collection: String, id: String) throws -> StoredObject? {
        try read("reading \(collection)/\(id)") { db in try ObjectRow.fetch(db, collection: collection, id: id)?.publicObject }
    }

    /// The number of queue entries the server has not confirmed, as it changes.
    func observeQueueCount() -> StoreObservation<Int> {
        observe(readingObjects: false) { db in try QueueTable.count(db) }
    }

    /// One object with all its copies and flags (nil when absent), as it changes.
    func observeStoredObject(collection: String, id: String) -> StoreObservation<StoredObject?> {
        observe { db in try ObjectRow.fetch(db, collection: collection, id: id)?.publicObject }
    }

    /// Whether the object is pinned (``ObjectKeyedTables``).
    func isPinned(collection: String, id: String) throws -> Bool {
        try read("reading \(collection)/\(id)") { db in try ObjectKeyedTables.isPinned(db, collection: collection, id: id) }
    }

    /// The id the server assigned to an object created under `id`, or nil when it was never re-keyed.
    func serverID(for id: String, in collection: String) throws -> String? {
        try read("reading id aliases") { db in try ObjectKeyedTables.serverID(db, for: id, in: collection) }
    }

    /// Pins or unpins an object (``ObjectKeyedTables``); false, having written nothing, when
    /// the store does not hold it.
    func setPinned(_ pinned: Bool, collection: String, id: String) throws -> Bool {
        try write("pinning \(collection)/\(id)") { db in
            guard try ObjectRow.fetch(db, collection: collection, id: id) != nil else { return false }
            try ObjectKeyedTables.setPinned(db, collection: collection, id: id, pinned)
            return true
        }
    }

    /// Queues a failed blob upload again (``BlobTable``); false, having written nothing, when
    /// the blob did not fail.
    func retryFailedBlobUpload(collection: String, id: String, field: String) throws -> Bool {
        try write("retrying the blob \(field) of \(collection)/\(id)") { db in
            try BlobTable.retryFailedUpload(db, collection: collection, id: id, field: field)
        }
    }
}
