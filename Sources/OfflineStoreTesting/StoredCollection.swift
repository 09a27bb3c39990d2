import OfflineStore

/// One record as the in-memory server holds it: live data or a tombstone.
struct StoredRecord: Sendable, Hashable {
    /// The data with its `id` and without `last_modified`; nil for a tombstone.
    var data: JSONValue?
    /// Kinto's `last_modified` of the record (of the deletion, for a tombstone).
    var lastModified: Int64
}

/// One collection of the in-memory server: records, tombstones and the collection timestamp.
struct StoredCollection: Sendable {
    /// Records and tombstones by id.
    var records: [String: StoredRecord] = [:]
    /// The timestamp of the last write (Kinto's collection ETag); 0 before the first write.
    private(set) var timestamp: Int64

    /// Creates an empty collection whose writes get versions above `floor`.
    init(floor: Int64 = 0) { timestamp = floor }

    /// Gives a write a timestamp greater than every earlier one of this collection.
    mutating func nextTimestamp(now: Int64) -> Int64 {
        timestamp = max(now, timestamp + 1)
        return timestamp
    }

    /// The live record with this id, if any.
    func live(_ id: String) -> (data: JSONValue, lastModified: Int64)? {
        guard let record = records[id], let data = record.data else { return nil }
        return (data, record.lastModified)
    }

    /// Stores `data` (an object) under `id` as a new version; returns that version.
    @discardableResult
    mutating func write(id: String, data: [String: JSONValue], now: Int64) -> Int64 {
        var stored = data
        stored["last_modified"] = nil
        stored["id"] = .string(id)
        let version = nextTimestamp(now: now)
        records[id] = StoredRecord(data: .object(stored), lastModified: version)
        return version
    }

    /// Stores `data` under `id` with a `last_modified` the writer sent, as Kinto's memory
    /// backend does (`bump_timestamp`): equal to the collection timestamp, bumped past it; in
    /// the future, taken and the collection timestamp moves there; in the past, stored as it is
    /// and the collection timestamp stays, so the record shares its version with the change
    /// written at that instant (Docs/KintoFacts.md §6). Returns the version.
    @discardableResult
    mutating func write(id: String, data: [String: JSONValue], sentVersion stamp: Int64) -> Int64 {
        var stored = data
        stored["last_modified"] = nil
        stored["id"] = .string(id)
        let version: Int64
        if stamp == timestamp {
            timestamp += 1
            version = timestamp
        } else {
            if stamp > timestamp { timestamp = stamp }
            version = stamp
        }
        records[id] = StoredRecord(data: .object(stored), lastModified: version)
        return version
    }

    /// Replaces a live record with a tombstone; returns the tombstone's version, nil if none was live.
    @discardableResult
    mutating func remove(id: String, now: Int64) -> Int64? {
        guard live(id) != nil else { return nil }
        let version = nextTimestamp(now: now)
        records[id] = StoredRecord(data: nil, lastModified: version)
        return version
    }

    /// Rewrites a live record unchanged under a new version, as a concurrent writer would.
    mutating func touch(id: String, now: Int64) {
        guard let current = live(id)?.data.objectValue else { return }
        write(id: id, data: current, now: now)
    }

    /// The changes with `after < last_modified <= bound`, oldest first; at one version (a
    /// writer's timestamp in the past) live records before tombstones, as Kinto's memory
    /// backend lists them, then by id.
    func changes(after: Int64, upTo bound: Int64) -> [(id: String, record: StoredRecord)] {
        records
            .filter { $0.value.lastModified > after && $0.value.lastModified <= bound }
            .map { (id: $0.key, record: $0.value) }
            .sorted { a, b in
                if a.record.lastModified != b.record.lastModified { return a.record.lastModified < b.record.lastModified }
                if (a.record.data == nil) != (b.record.data == nil) { return a.record.data != nil }
                return a.id < b.id
            }
    }
}
