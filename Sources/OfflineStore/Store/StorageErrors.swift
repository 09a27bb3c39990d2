import GRDB

extension OfflineStoreError {
    /// Maps an SQLite failure to a typed error; bound values never appear in the message.
    static func storage(_ error: any Error, while action: String) -> OfflineStoreError {
        if let own = error as? OfflineStoreError { return own }
        guard let db = error as? DatabaseError else {
            return OfflineStoreError(.storage, "\(action) failed", underlying: String(describing: error), underlyingError: error)
        }
        let detail = "SQLite error \(db.extendedResultCode.rawValue): \(db.message ?? "no message")"
        switch db.resultCode {
        case .SQLITE_NOTADB:
            return OfflineStoreError(.notADatabase, "\(action): the file is not an OfflineStore database", underlying: detail, underlyingError: db)
        case .SQLITE_CORRUPT:
            return OfflineStoreError(.corrupted, "\(action): the store file is corrupted", underlying: detail, underlyingError: db)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return OfflineStoreError(.locked, "\(action): the store is locked by another writer", underlying: detail, underlyingError: db)
        case .SQLITE_INTERRUPT, .SQLITE_ABORT:
            // GRDB's suspension (ObjectStore.databaseSuspendNotification) interrupts statements that would lock.
            return OfflineStoreError(.storage, "\(action): the database is suspended or the statement was interrupted; "
                                     + "nothing was written (retry after the app resumes)", underlying: detail, underlyingError: db)
        case .SQLITE_FULL:
            return OfflineStoreError(.storage, "\(action): the disk is full; nothing was written", underlying: detail, underlyingError: db)
        default:
            return OfflineStoreError(.storage, "\(action) failed", underlying: detail, underlyingError: db)
        }
    }
}
