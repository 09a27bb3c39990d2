import Foundation
import GRDB
import Logging

extension ObjectStore {
    /// How a store behaves; every property has a documented default.
    public struct Configuration: Sendable {
        /// How long opening the store and every write wait for another process's write transaction before
        /// ``OfflineStoreError/Code/locked``, blocking the caller (Docs/Errors.md, "A busy store"). Default: 5 seconds.
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
        /// Runs first on every new SQLite connection the store opens, before the store reads
        /// or migrates anything: the place to give an encryption key or to set pragmas.
        /// Default: nil.
        ///
        /// With GRDB built over SQLCipher (see GRDB's "Encryption" guide), this opens an
        /// encrypted store; every connection needs the key, so it must be given here:
        ///
        /// ```swift
        /// import GRDB      // for `Database`
        /// var configuration = ObjectStore.Configuration()
        /// configuration.prepareDatabase = { db in try db.usePassphrase(keychainPassphrase()) }
        /// let store = try ObjectStore(path: path, configuration: configuration)
        /// ```
        ///
        /// An error it throws fails the open (or the read that opened the connection) with
        /// ``OfflineStoreError/Code/storage``, or `notADatabase` when the key is wrong.
        public var prepareDatabase: (@Sendable (Database) throws -> Void)?
        /// The data protection class of the store's files, set when it opens, on iOS, watchOS
        /// and visionOS (ignored elsewhere and by an in-memory store). Default: nil, the app
        /// container's class. `.complete` fails every access while the device is locked
        /// (``OfflineStoreError/Code/storage``), a background sync's too: prefer
        /// `.completeUntilFirstUserAuthentication`; under `.completeUnlessOpen` the store keeps
        /// open what it uses (Docs/ApplePlatforms.md, "File protection").
        public var fileProtection: FileProtection?
        /// How often, while an observation runs, the store looks for writes that other processes committed
        /// to its file (an app extension, a scheduled `offline-store sync`), so observed queries see them
        /// too; nil: never (only this process's writes are observed). Ignored by an in-memory store.
        /// Default: 250 ms. One `PRAGMA data_version` per interval; nothing polls while no observation runs.
        public var externalChangeInterval: Duration? = .milliseconds(250)
        /// How long a create whose answer never came (a timeout, a lost connection, a kill) is
        /// watched for a late delivery: a network can deliver the request after the store
        /// resent it and the app deleted the object, which on Kinto brings the object back.
        /// A refresh within this time after the lost answer recognises such a record as this
        /// store's own late write and deletes it again (Docs/Sync.md, "Late deliveries"); at
        /// most 1,000 creates are watched at once. `.zero` turns the recognition off.
        /// Default: 7 days.
        public var lateDeliveryWindow: Duration = .seconds(7 * 24 * 3600)
        /// How long a flush waits for the next batch's request to go out before it writes the
        /// answers of the batch before it (``RequestWritten``): a request that cannot go out
        /// sooner (a connection being made, a stalled network) does not keep answers that
        /// arrived unwritten for longer. Well above the usual hand-over to the transport's
        /// thread, well below a request's time at the server. Tests change it.
        package var requestWrittenPatience: Duration = .milliseconds(20)
        /// Test hooks for fault injection; not for production use.
        package var faults = FaultInjection()

        /// A configuration with every default.
        public init() {}
    }

    /// A data protection class for the store's files (Foundation's `FileProtectionType`),
    /// see ``Configuration/fileProtection``.
    public enum FileProtection: String, Sendable, Hashable, CaseIterable {
        /// Readable only while the device is unlocked.
        case complete
        /// Files open when the device locks stay usable, new opens fail: the store opens its connections with it.
        case completeUnlessOpen
        /// Readable from the first unlock after a restart on (what a background sync needs).
        case completeUntilFirstUserAuthentication
        /// No protection beyond the device's own encryption.
        case none
    }
}

/// Points where tests can make a write fail, to prove atomicity.
package struct FaultInjection: Sendable {
    /// Called inside the write transaction after the object row is written and before
    /// the queue entry is; throwing aborts the transaction.
    package var afterObjectWrite: (@Sendable (_ collection: String, _ id: String) throws -> Void)?
    /// Creates an empty set of hooks.
    package init() {}
}
