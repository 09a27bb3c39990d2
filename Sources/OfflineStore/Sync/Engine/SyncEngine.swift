import Foundation
import GRDB

/// The sync engine: flush, refresh, conflict settlement, re-keying, own-write recognition
/// and blob transfer, between the local store and one backend.
///
/// The engine decides with pure rules (``FlushPlan``, ``FlushRun``, ``PushAnswer``,
/// ``RemoteChangeRule``, ``ConflictRule``, ``QueueLifecycle``), writes through the
/// ``LocalStore`` (which alone holds SQL and transactions), and tells the app afterwards:
/// sync events, the failed-entry handler and a custom conflict resolver are called only
/// after the transaction that found them committed (``AppNotices``).
///
/// One run at a time per store file (``SyncLock``). The ``ObjectStore`` facade composes it.
final class SyncEngine: Sendable {
    let local: LocalStore
    let backend: any Backend
    let configuration: ObjectStore.Configuration
    let runtime: StoreRuntime
    let lock: SyncLock
    let connectivity: Connectivity

    init(local: LocalStore, backend: any Backend, configuration: ObjectStore.Configuration,
         runtime: StoreRuntime, lock: SyncLock, connectivity: Connectivity) {
        self.local = local
        self.backend = backend
        self.configuration = configuration
        self.runtime = runtime
        self.lock = lock
        self.connectivity = connectivity
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
        runtime.events.send(event)
    }

    /// Runs a flush, refresh, sync or reset holding the sync lock (``SyncLock``). Cancelled
    /// while waiting for another process's run, it throws `cancelled` with what is left.
    func withSyncLock<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await lock.withLock(whenCancelledWaiting: { (try? finish(SyncReport())) ?? SyncReport() }, body)
    }

    /// Fills the report's "left" counts from the store; the held-back count adds to
    /// the entries the flush held for their associations.
    func finish(_ report: SyncReport) throws -> SyncReport {
        let left = try local.leftReport()
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

/// How one sync run goes, passed down explicitly from the call that started it.
struct SyncRun: Sendable {
    /// Counts the run's progress for its events; nil for the flush of an immediate write.
    var progress: ProgressCounter?
    /// Whether entries whose retry delay has not come are skipped (AutoSync's runs).
    var honoursRetryDelays = false

    /// The flush an immediate write starts: no events, every entry due.
    static let immediateWrite = SyncRun(progress: nil, honoursRetryDelays: false)
}
