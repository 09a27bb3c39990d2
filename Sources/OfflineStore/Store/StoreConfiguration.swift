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
        /// Decides automatically what to do with an entry the server rejects, during the
        /// flush (see ``FailedEntryHandler``). Default nil: failed entries wait for the app.
        public var failedEntryHandler: FailedEntryHandler?
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
