import Foundation

/// A create this store sent whose answer never came (a timeout, a lost connection, a crash
/// while it was on the wire), watched for a late delivery: the request may still reach
/// the server after the store has moved on (pure value; `LateDeliveryTable` keeps them).
struct WatchedCreate: Sendable, Hashable {
    /// The object's id (its server id, once a server-assigned id is known).
    var objectID: String
    /// The object exactly as it was sent.
    var payload: JSONValue
    /// When the store gave up waiting for the answer.
    var sentAt: Date
    /// Whether this store saw the object deleted on the server after the send: its own
    /// delete was acknowledged, or it pulled a tombstone; with the deletion's version, if any.
    var deleted: Bool
    var deletedVersion: String?
    /// Whether the create got an answer since (a resend was answered, or a pulled record was
    /// taken as its answer); only then is a second record holding its fields a duplicate.
    var isAnswered: Bool
}

/// What a pulled record (or the server's copy in a 412) is when it may be a late delivery
/// of one of this store's own creates (pure): the rule of Docs/Sync.md "Late deliveries".
///
/// | the record | the object here | rule |
/// |---|---|---|
/// | a tombstone, or no unanswered create matches | any | ``notLate`` |
/// | exactly what a create of this id sent, newer than a deletion this store saw after that send | no copy, or a synced copy at another version | ``undo``: delete it again |
/// | the same | a local edit (delete, re-create, update) | ``supersede``: the edit stays, on the record's version |
/// | the same | conflicted or failed | ``notLate``: the app decides |
/// | where the server assigns ids: another id, holding every field a create sent that was answered since | unknown here | ``undo``: a duplicate of that create |
///
/// Limit: another client that writes exactly what this store sent (byte for byte) to that
/// id after the deletion, or (where the server assigns ids) a record with every field of
/// that create, within ``ObjectStore/Configuration/lateDeliveryWindow``, is taken for the
/// late delivery.
enum LateDeliveryRule: Equatable, Sendable {
    /// Not a late delivery of ours: the change goes the usual way.
    case notLate
    /// Our late create brought back what this store saw deleted (or made a second record):
    /// delete it again, on its version.
    case undo
    /// Our late create landed under a local edit made since: the edit stays and is sent on
    /// the record's version, with no conflict.
    case supersede

    /// The object's state in this store.
    enum Local: Equatable, Sendable {
        /// No row.
        case none
        /// A server copy at this version, no local edit.
        case synced(version: String?)
        /// A pending local edit (including a local delete).
        case edited
        /// Conflicted, or its entry failed.
        case conflictedOrFailed
    }

    /// The rule for a record `record` at `version` of object `id`, given the object here and
    /// the collection's unanswered creates; `assignsIDs`: the server makes the ids.
    static func decide(id: String, record: JSONValue?, version: String, local: Local,
                       creates: [WatchedCreate], assignsIDs: Bool) -> LateDeliveryRule {
        guard let record, local != .conflictedOrFailed else { return .notLate }
        let resurrects = creates.contains { create in
            create.objectID == id && create.deleted && create.payload == record
                && isNewer(version, than: create.deletedVersion)
        }
        if resurrects {
            switch local {
            case .none: return .undo
            case .synced(let held): return held == version ? .notLate : .undo
            case .edited: return .supersede
            case .conflictedOrFailed: return .notLate
            }
        }
        let duplicates = assignsIDs && local == .none && creates.contains { create in
            create.objectID != id && create.isAnswered && holds(record, every: create.payload)
        }
        return duplicates ? .undo : .notLate
    }

    /// Whether `version` can come after the deletion `deleted`: versions that are numbers
    /// (Kinto's timestamps) are compared; others (ETags) only differ.
    static func isNewer(_ version: String, than deleted: String?) -> Bool {
        guard let deleted else { return true }
        if let v = Int64(version), let d = Int64(deleted) { return v > d }
        return version != deleted
    }

    /// Whether `record` holds every field of `sent` with the same value (`id` aside): a
    /// server adds fields it manages (timestamps, a lock version) to what it was sent.
    static func holds(_ record: JSONValue, every sent: JSONValue) -> Bool {
        guard let fields = sent.objectValue, let server = record.objectValue else { return false }
        return fields.allSatisfy { $0.key == "id" || server[$0.key] == $0.value }
    }
}
