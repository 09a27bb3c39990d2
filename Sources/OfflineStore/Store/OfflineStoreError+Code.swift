/// The stable codes of ``OfflineStoreError``: what an app switches on.

extension OfflineStoreError {
    /// The kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        enum Base: String, Sendable, Hashable, CaseIterable {
            case notADatabase, corrupted, locked, schemaTooNew, storage, closed
            case invalidID, invalidJSON, invalidFieldPath, schemaViolation, unknownCollection
            case collectionExists, notFound, alreadyExists, notConflicted, invalidOperation
            case offline, unauthorized, conflict, server, timeout, badResponse, failedEntry, configuration
            case storeFull
            case serverLostData
            case cancelled
            case undecodable
            case forbidden
            case modelTooNew
            case pendingEdits
        }
        let base: Base
        /// The code's name, e.g. "offline".
        public var description: String { base.rawValue }

        /// The file exists but is not an SQLite database.
        public static let notADatabase = Code(base: .notADatabase)
        /// The store file is damaged.
        public static let corrupted = Code(base: .corrupted)
        /// Another connection held the write lock past the busy timeout.
        public static let locked = Code(base: .locked)
        /// The store was written by a newer version of OfflineStore.
        public static let schemaTooNew = Code(base: .schemaTooNew)
        /// Any other SQLite failure (see ``OfflineStoreError/underlying``).
        public static let storage = Code(base: .storage)
        /// The store was closed.
        public static let closed = Code(base: .closed)
        /// An object id is empty, too long, or has characters the backend refuses.
        public static let invalidID = Code(base: .invalidID)
        /// A value is not valid JSON, or not a JSON object where one is needed.
        public static let invalidJSON = Code(base: .invalidJSON)
        /// A field path in a query or schema is not allowed.
        public static let invalidFieldPath = Code(base: .invalidFieldPath)
        /// An object breaks its collection's declared schema.
        public static let schemaViolation = Code(base: .schemaViolation)
        /// No collection with this name is registered.
        public static let unknownCollection = Code(base: .unknownCollection)
        /// A collection with this name is already registered with another definition.
        public static let collectionExists = Code(base: .collectionExists)
        /// No object (or queue entry) with this id.
        public static let notFound = Code(base: .notFound)
        /// An object with this id already exists.
        public static let alreadyExists = Code(base: .alreadyExists)
        /// The object has no conflict to resolve.
        public static let notConflicted = Code(base: .notConflicted)
        /// The operation does not apply to this object or entry in its current state.
        public static let invalidOperation = Code(base: .invalidOperation)
        /// The server could not be reached and the update policy needs it.
        public static let offline = Code(base: .offline)
        /// The server refused the credentials (401): sign in again. Every collection is affected.
        public static let unauthorized = Code(base: .unauthorized)
        /// The server knows the user but refused this collection or record (403), or the
        /// collection is read-only for this user: the other collections sync on (Docs/Auth.md,
        /// "Sharing and lost access"). An edit refused this way is kept as a failed entry.
        public static let forbidden = Code(base: .forbidden)
        /// The server holds a different version than the edit was based on.
        public static let conflict = Code(base: .conflict)
        /// The server answered with an error status.
        public static let server = Code(base: .server)
        /// The server did not answer in time.
        public static let timeout = Code(base: .timeout)
        /// The server's answer could not be understood.
        public static let badResponse = Code(base: .badResponse)
        /// The server rejected the edit; it is kept as a failed entry until the app acts.
        public static let failedEntry = Code(base: .failedEntry)
        /// The store or backend configuration is incomplete or invalid.
        public static let configuration = Code(base: .configuration)
        /// The write would grow the store past ``ObjectStore/Configuration/maxStoreSize``; nothing was written.
        public static let storeFull = Code(base: .storeFull)
        /// The server no longer has data this store synced (e.g. a Kinto collection that is
        /// empty or missing while local objects carry server versions); local data is kept.
        /// Recover with ``ObjectStore/resyncFromServer(keepingPendingEdits:)`` or by pushing again.
        public static let serverLostData = Code(base: .serverLostData)
        /// The task running `flush`, `refresh` or `sync` was cancelled. The run stopped at a
        /// safe point: requests already sent were answered and settled, pages already pulled
        /// were applied; the rest stays queued (or is pulled by the next refresh).
        /// ``OfflineStoreError/report`` says what was done.
        public static let cancelled = Code(base: .cancelled)
        /// A stored object does not decode as the model it is read as (another client wrote
        /// another shape, or the model changed). The object stays stored, unchanged;
        /// ``OfflineStoreError/undecodableRecord`` holds its id, raw JSON and the `DecodingError`.
        public static let undecodable = Code(base: .undecodable)

        /// A collection's stored copies are at a higher schema version than the one registered:
        /// a newer release of the app migrated them (``CollectionDescriptor/schemaVersion``,
        /// ``SyncModel/schemaVersion``). Nothing was changed.
        public static let modelTooNew = Code(base: .modelTooNew)

        /// A logout asked to refuse while edits wait to be sent (``PendingEditsAtLogout/refuse``),
        /// and some do: nothing changed, the user is still signed in. Sync first, or log out
        /// keeping or discarding them.
        public static let pendingEdits = Code(base: .pendingEdits)
    }
}
