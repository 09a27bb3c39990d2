import Foundation
import GRDB

/// The sync engine: everything between the local store and the server, and the store's
/// sync state — flush, refresh and sync (with their events), conflict settlement,
/// re-keying, own-write recognition, blob transfer, fetch and search, the resets, and what
/// a changed sync scope means when a collection is registered.
///
/// The engine decides with pure rules (``FlushPlan``, ``FlushStateMachine``,
/// ``PushOutcomeRule``, ``RemoteChangeRule``, ``ConflictRule``, ``QueueTransition``,
/// ``ScopeRule``), writes through the ``LocalStore`` (which alone holds SQL and
/// transactions), and tells the app afterwards: sync events, the failed-entry handler and
/// a custom conflict resolver are called only after the transaction that found them
/// committed (``AppNotices``).
///
/// One run at a time per store file: every run and every reset holds the ``SyncLock``
/// (``withSyncLock(_:)``). A store without a backend has an engine too (its resets and
/// scopes are local); its runs fail with `configuration`, its fetches with `offline`
/// (``connected(_:missing:)``). The ``ObjectStore`` facade and the ``EditEngine`` (for
/// the background sender of immediate mode and the push of `awaitingServer`) call it.
final class SyncEngine: Sendable {
    let local: LocalStore
    /// The backend; nil for a store without one.
    let attachedBackend: (any Backend)?
    let configuration: ObjectStore.Configuration
    let observers: StoreObservers
    let lock: SyncLock
    let connectivity: Connectivity
    /// Entries the failed-entry handler chose to retry: sent again by the next flush, not this one.
    let deferredRetries = Locked(Set<Int64>())
    /// Sends immediate-mode edits after they committed (``BackgroundSender``).
    let sender: BackgroundSender

    init(local: LocalStore, backend: (any Backend)?, configuration: ObjectStore.Configuration,
         observers: StoreObservers, lock: SyncLock, connectivity: Connectivity) {
        self.local = local
        attachedBackend = backend
        self.configuration = configuration
        self.observers = observers
        self.lock = lock
        self.connectivity = connectivity
        sender = BackgroundSender()
    }

    /// The backend of a run: the steps below a run's entry point (which checked
    /// ``connected(_:missing:)`` first) only run on a store that has one.
    var backend: any Backend {
        guard let attachedBackend else { preconditionFailure("a sync step ran on a store without a backend") }
        return attachedBackend
    }

    /// The backend, or `code` (by default `configuration`) saying the store has none to `purpose`.
    @discardableResult
    func connected(_ purpose: String, missing code: OfflineStoreError.Code = .configuration) throws -> any Backend {
        guard let attachedBackend else { throw OfflineStoreError(code, "the store has no backend to \(purpose)") }
        return attachedBackend
    }

    /// The registered collections.
    var collections: CollectionRegistry { local.collections }

    func descriptor(of name: String) throws -> CollectionDescriptor {
        try collections.descriptor(of: name)
    }

    var isForcedOffline: Bool { connectivity.isForcedOffline }

    /// A write of the engine: its object changes reach observers as coming from the server.
    func write<T>(_ action: String, reasons: ChangeReasons? = nil, _ body: (Database) throws -> T) throws -> T {
        try local.write(action, origin: .server, reasons: reasons, body)
    }

    func read<T>(_ action: String, _ body: (Database) throws -> T) throws -> T {
        try local.read(action, body)
    }

    /// Sends an event to every subscriber (never inside a transaction).
    func emit(_ event: SyncEvent) {
        observers.events.send(event)
    }

    /// Runs a flush, refresh, sync, fetch or reset holding the sync lock (``SyncLock``).
    /// Cancelled while waiting for another process's run, it throws `cancelled` with what is left.
    func withSyncLock<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await lock.withLock(whenCancelledWaiting: { (try? finish(SyncReport())) ?? SyncReport() }, body)
    }

    /// The report with its "left" counts (conflicts, failed, pending, held back) read from
    /// the store; the held-back count adds to the entries a flush held for their associations.
    func finish(_ report: SyncReport) throws -> SyncReport {
        let left = try read("counting what is left") { db in try QueueTable.leftCounts(db) }
        var report = report
        report.conflicts = left.conflicts
        report.failed = left.failed
        report.pending = left.pending
        report.heldBack += left.heldBack
        return report
    }

    /// Records the time of a completed refresh or sync.
    func markSynced() throws {
        let now = configuration.now().timeIntervalSince1970
        try write("recording the sync time") { db in try MetaTable.setValue(String(now), forKey: MetaTable.lastSyncKey, in: db) }
    }
}

/// What the call that started a flush or refresh wants of it, passed down explicitly.
struct SyncContext: Sendable {
    /// Counts the run's progress for its events; nil for the flush of an immediate write.
    var progress: ProgressCounter?
    /// Whether entries whose retry delay has not come are skipped (AutoSync's runs).
    var honoursRetryDelays = false

    /// The flush an immediate write starts: no events, every entry due.
    static let immediateWrite = SyncContext(progress: nil, honoursRetryDelays: false)

    /// Set while an ``AutoSync`` custom action runs: the public `flush()` and `sync()` it
    /// calls honour retry delays, as AutoSync's own runs do. Read only at that public
    /// boundary; below it the choice travels as ``honoursRetryDelays``.
    @TaskLocal static var insideAutoSyncAction = false
}
