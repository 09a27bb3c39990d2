import Foundation

/// The store's observers, shared by the facade, the local store (which publishes object
/// changes after each commit) and the sync engine (which sends sync events). Nothing here
/// is persisted.
final class StoreObservers: Sendable {
    /// Sync events (started, progress, conflict, failed entry, finished, error).
    let events = Broadcaster<SyncEvent>()
    /// Object changes, all collections (filtered per subscriber).
    let changes = Broadcaster<ObjectChange>()
    /// Commits to the store file, by this store or another process (``ObjectStore/commits()``).
    let commits = Broadcaster<StoreCommit>()
    /// How many value observations (queries, objects, flags, the pending count) are running.
    let valueObservers = Locked(0)
    /// Whether the change-log triggers are installed on the writer connection.
    let changeLogInstalled = Locked(false)
    /// Polls for other processes' writes while observations run.
    let externalChanges = ExternalChangeWatcher()

    /// How many observations of the store are running: value observations (each a GRDB
    /// database observation), object-change, sync-event and commit streams. Zero once every
    /// consumer stopped iterating (the tests of observation lifetimes read it).
    var runningCount: Int {
        valueObservers.withLock { $0 } + changes.subscriberCount + events.subscriberCount + commits.subscriberCount
    }

    /// Ends every stream (the store closes): consumers' loops finish.
    func finishStreams() {
        events.finish()
        changes.finish()
        commits.finish()
    }
}

/// Where a change came from.
public enum ChangeOrigin: String, Sendable, Hashable, Codable {
    /// An edit the app made on this device (including its own edits confirmed by the server).
    case local
    /// A change pulled from the server, or a conflict settled in the server's favour.
    case server
}
