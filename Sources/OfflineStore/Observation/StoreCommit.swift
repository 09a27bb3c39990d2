/// A commit to the store's file, as ``ObjectStore/commits()`` reports it.
public enum StoreCommit: Sendable, Hashable {
    /// A write of this store instance committed (an edit, a sync step, a reset, …).
    case thisStore
    /// Another process (an app extension, `offline-store update`) or another store instance
    /// on the same file committed, noticed within ``ObjectStore/Configuration/externalChangeInterval``.
    case otherConnection
}
