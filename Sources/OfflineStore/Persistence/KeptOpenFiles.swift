/// What a store opens when it opens, and keeps open for its life, because of its files'
/// data protection class (``ObjectStore/Configuration/fileProtection``).
///
/// Under `.completeUnlessOpen` a file stays usable while the device is locked only through
/// a descriptor opened before the lock; a new open fails. GRDB's pool opens its reader
/// connections on demand and closes them to free memory (on iOS when the app moves to the
/// background), and the sync lock file opens on first use: so under that class the store
/// opens every reader the pool may use and the sync lock file with the store, and GRDB keeps
/// the readers (`persistentReadOnlyConnections`). The writer connection is always open.
/// Under the other classes nothing needs it: `.complete` makes even open files unreadable
/// while the device is locked, and the others never refuse an open after the first unlock.
/// An in-memory store has no files. The same on every platform, so it is tested where it is
/// written; only Apple's mobile systems enforce the class.
struct KeptOpenFiles: Equatable, Sendable {
    /// Reader connections opened with the store and never closed; 0: opened on demand.
    var readers: Int
    /// Whether the sync lock file is opened with the store.
    var syncLockFile: Bool

    /// Nothing opened ahead.
    static let onDemand = KeptOpenFiles(readers: 0, syncLockFile: false)

    init(readers: Int, syncLockFile: Bool) {
        self.readers = readers
        self.syncLockFile = syncLockFile
    }

    /// The rule: everything under `.completeUnlessOpen` for a file store, else nothing.
    init(protection: ObjectStore.FileProtection?, isInMemory: Bool, maximumReaderCount: Int) {
        self = protection == .completeUnlessOpen && !isInMemory
            ? KeptOpenFiles(readers: maximumReaderCount, syncLockFile: true)
            : .onDemand
    }
}
