import Foundation
import GRDB

/// The store's in-memory state around the engine: observers and entries the error handler
/// deferred. Nothing here is persisted.
final class StoreRuntime: Sendable {
    /// Sync events (started, progress, conflict, failed entry, finished, error).
    let events = Broadcaster<SyncEvent>()
    /// Object changes, all collections (filtered per subscriber).
    let changes = Broadcaster<ObjectChange>()
    /// How many value observations (queries, objects, flags, the pending count) are running.
    let valueObservers = Locked(0)
    /// Whether the change-log triggers are installed on the writer connection.
    let changeLogInstalled = Locked(false)
    /// Polls for other processes' writes while observations run.
    let externalChanges = ExternalChangeWatcher()
    /// Entries the error handler chose to retry: sent again by the next flush, not this one.
    let deferredRetries = Locked(Set<Int64>())

    /// Whether any object-change or query observer exists.
    var observesObjects: Bool { changes.hasSubscribers || valueObservers.withLock { $0 > 0 } }
}


/// Where a change came from.
public enum ChangeOrigin: String, Sendable, Hashable, Codable {
    /// An edit the app made on this device (including its own edits confirmed by the server).
    case local
    /// A change pulled from the server, or a conflict settled in the server's favour.
    case server
}
