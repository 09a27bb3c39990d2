import Foundation
import Logging

extension ObjectStore {
    /// How a store behaves; every property has a documented default.
    public struct Configuration: Sendable {
        /// How long a write waits for another connection's lock before failing with
        /// ``OfflineStoreError/Code/locked``. Default: 5 seconds.
        public var busyTimeout: Duration = .seconds(5)
        /// When edits reach the network. Default: ``WriteMode/immediate``.
        public var writeMode: WriteMode = .immediate
        /// The store-wide update policy; collections and calls may override it.
        /// Default: ``UpdatePolicy/queueIfOffline``.
        public var updatePolicy: UpdatePolicy = .queueIfOffline
        /// The source of timestamps (queue entries, last sync). Inject a fixed clock in tests.
        public var now: @Sendable () -> Date = { Date() }
        /// Where the store logs; never receives credentials or object contents.
        public var logger: Logger = Logger(label: "OfflineStore")
        /// The fetch policy of reads that may go to the server; collections and calls may
        /// override it. Default: ``FetchPolicy/fromCache``.
        public var fetchPolicy: FetchPolicy = .fromCache
        /// Per-collection fetch policies, by collection name; override ``fetchPolicy``. Default: none.
        public var fetchPolicies: [String: FetchPolicy] = [:]
        /// The most bytes the store's used pages may take (OMC `maxStoreSize`); a write
        /// past it fails with ``OfflineStoreError/Code/storeFull``. Default: nil (no limit).
        public var maxStoreSize: Int64? = nil
        /// Whether a write that hits ``maxStoreSize`` first evicts least recently used,
        /// synced, unpinned objects to make room. Default: false.
        public var evictsWhenFull: Bool = false
        /// Decides automatically what to do with an entry the server rejects, during the
        /// flush (see ``FailedEntryHandler``). Default nil: failed entries wait for the app.
        public var failedEntryHandler: FailedEntryHandler?
        /// How often, while an observation runs, the store looks for writes that other
        /// processes committed to its file (an app extension, a scheduled
        /// `offline-store sync`), so observed queries see them too; nil: never (only this
        /// process's writes are observed). Default: 250 ms. One `PRAGMA data_version` per
        /// interval; nothing polls while no observation runs.
        public var externalChangeInterval: Duration? = .milliseconds(250)
        /// Test hooks for fault injection; not for production use.
        @_spi(Testing) public var faults = FaultInjection()

        /// A configuration with every default.
        public init() {}
    }
}

/// Points where tests can make a write fail, to prove atomicity.
@_spi(Testing) public struct FaultInjection: Sendable {
    /// Called inside the write transaction after the object row is written and before
    /// the queue entry is; throwing aborts the transaction.
    public var afterObjectWrite: (@Sendable (_ collection: String, _ id: String) throws -> Void)?
    /// Creates an empty set of hooks.
    public init() {}
}
