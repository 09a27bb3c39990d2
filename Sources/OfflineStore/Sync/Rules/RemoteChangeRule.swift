/// What one pulled change does to the local object (pure): the refresh rules of Docs/Sync.md.
///
/// | the object here | the change | rule |
/// |---|---|---|
/// | unknown | a record | ``insert`` |
/// | unknown | a tombstone | ``ignore`` |
/// | holds that server version already (a look-back re-read, our own write) | the same copy | ``ignore`` |
/// | holds that server version, no local edit | another copy (a server that stored two versions under one timestamp) | ``replace`` / ``delete`` |
/// | a local edit based on that very version | any | ``ignore`` |
/// | no local edit | a record / a tombstone | ``replace`` / ``delete`` |
/// | conflicted or failed | any | ``storeServerCopy`` (the app still decides) |
/// | a pending local edit on another version | any | ``meetLocalEdit`` |
enum RemoteChangeRule: Equatable, Sendable {
    /// Store the record as a new synced object.
    case insert
    /// Nothing changes.
    case ignore
    /// The server's copy replaces the persistent copy.
    case replace
    /// The object goes.
    case delete
    /// Keep the local state; store the server's copy and version beside it.
    case storeServerCopy
    /// A local edit meets another server version: first check whether it is our own write
    /// coming back (an answer that was lost); if not, `tombstoneAgrees` (a tombstone meeting
    /// a local delete, or a create that started from no server copy) keeps the edit queued
    /// without a conflict; otherwise the collection's policy settles the conflict.
    case meetLocalEdit(tombstoneAgrees: Bool)

    /// The rule for a change with `version` and `record` (nil: a tombstone) meeting `row`.
    static func decide(_ row: ObjectRow?, version: String?, record: JSONValue?) -> RemoteChangeRule {
        let isTombstone = record == nil
        guard let row else { return isTombstone ? .ignore : .insert }
        let hasLocalEdit = row.dirty || row.state == .conflicted || row.state == .failed
        if row.serverVersion == version {
            // A version is normally one copy; Kinto stores a client-given `last_modified` equal
            // to the collection's as it is, so one timestamp can name two copies. Without a
            // local edit the server's copy wins; with one, the version decides (a REST answer
            // and a pull of the same version may differ in server-managed fields).
            guard !hasLocalEdit, row.persistent != record else { return .ignore }
            return isTombstone ? .delete : .replace
        }
        if hasLocalEdit, version == row.baseVersion { return .ignore }
        guard hasLocalEdit else { return isTombstone ? .delete : .replace }
        if row.state == .conflicted || row.state == .failed { return .storeServerCopy }
        let startedFromNothing = row.base == nil && row.baseVersion == nil
        return .meetLocalEdit(tombstoneAgrees: isTombstone && (row.local == nil || startedFromNothing))
    }
}
