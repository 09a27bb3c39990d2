import GRDB

extension SyncEngine {
    /// After a pull from the beginning found nothing: when the store holds objects the
    /// server had (a server version), the server lost its data. Nothing local is changed.
    ///
    /// - Throws: ``OfflineStoreError/Code/serverLostData``.
    func checkServerKeptData(of collection: String) throws {
        let known = try read("checking \(collection)") { db in
            try ObjectRow.countSynced(db, in: collection)
        }
        guard known > 0 else { return }
        throw OfflineStoreError(.serverLostData,
            "the server has no records in \(collection) but this store holds \(known) object(s) it synced: the server "
            + "lost its data or the collection was deleted; local data is kept (push it again, or resyncFromServer)")
    }
}
