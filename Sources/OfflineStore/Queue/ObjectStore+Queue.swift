import GRDB

extension ObjectStore {
    /// The queue's entries in FIFO order, optionally only one collection's or one object's.
    public func queueEntries(collection: String? = nil, id: String? = nil) throws -> [QueueEntry] {
        try read("reading the queue") { db in
            switch (collection, id) {
            case let (c?, i?): try QueueTable.entries(db, collection: c, id: i)
            case let (c?, nil): try QueueTable.fetch(db, where: "collection = ?", arguments: [c])
            default: try QueueTable.fetch(db)
            }
        }
    }

    /// How many entries the queue holds, optionally only those in one state.
    public func queueCount(state: QueueEntry.State? = nil) throws -> Int {
        try read("counting the queue") { db in
            try QueueTable.count(db, state: state)
        }
    }

    /// Whether anything in the store waits to be sent (or was rejected and waits for the app).
    public func isChanged() throws -> Bool {
        try queueCount() > 0
    }

    /// Cancels a queued entry: every unsent edit of its object is dropped and the
    /// object rolls back to its persistent copy (it disappears if the server never had it).
    ///
    /// - Throws: ``OfflineStoreError`` `notFound` for an unknown entry, `invalidOperation`
    ///   while an entry of the object is in flight.
    public func cancel(entry seq: Int64) throws {
        try write("cancelling queue entry \(seq)") { db in
            guard let entry = try QueueTable.fetch(db, where: "seq = ?", arguments: [seq]).first else {
                throw OfflineStoreError(.notFound, "no queue entry \(seq)")
            }
            try FailedEntryActions.rollBack(db, collection: entry.collection, id: entry.objectID)
        }
    }
}
