import OfflineStore

extension InMemoryBackend {
    /// The server's live copy of a record and its version; nil if missing or deleted.
    public func serverRecord(collection: String, id: String) -> (record: JSONValue, version: String)? {
        state.withLock { s in
            s.collections[collection]?.live(id).map { ($0.data, String($0.lastModified)) }
        }
    }

    /// Every live record of a collection by id (tombstones left out).
    public func allRecords(collection: String) -> [String: JSONValue] {
        state.withLock { s in
            (s.collections[collection]?.records ?? [:]).compactMapValues(\.data)
        }
    }

    /// Whether the server holds a tombstone for this id.
    public func isDeleted(collection: String, id: String) -> Bool {
        state.withLock { s in
            guard let record = s.collections[collection]?.records[id] else { return false }
            return record.data == nil
        }
    }

    /// The collection timestamp (Kinto's collection ETag): its last version given, "0" on a fresh server.
    public func collectionTimestamp(collection: String) -> String {
        state.withLock { s in String(s.collection(collection).timestamp) }
    }

    /// Creates or replaces a record as another client would (no precondition); returns its new version.
    ///
    /// `record` must be a JSON object whose `id`, if present, is `id`; `last_modified` is dropped.
    @discardableResult
    public func put(collection: String, id: String, record: JSONValue) -> String {
        guard let data = record.objectValue else { preconditionFailure("put(collection:id:record:) needs an object") }
        precondition(KintoConventions.accepts(id: id), "the id \"\(id)\" breaks Kinto's id rule")
        precondition(data["id"] == nil || data["id"] == .string(id), "the record's id is not \"\(id)\"")
        let now = nowMilliseconds()
        return state.withLock { s in
            String(s.modify(collection) { $0.write(id: id, data: data, now: now) })
        }
    }

    /// Deletes a record as another client would, leaving a tombstone; returns its version, nil if not live.
    @discardableResult
    public func delete(collection: String, id: String) -> String? {
        let now = nowMilliseconds()
        return state.withLock { s in
            s.collections[collection]?.remove(id: id, now: now).map { String($0) }
        }
    }

    /// Erases every collection, record and tombstone, as a server that lost its data; later
    /// versions stay above every earlier one; faults, hook and request log stay.
    public func wipe() {
        state.withLock { $0.wipe() }
    }
}
