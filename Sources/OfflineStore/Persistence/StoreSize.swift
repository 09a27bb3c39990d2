import GRDB

/// Measures how many bytes a store's pages hold and enforces ``ObjectStore/Configuration/maxStoreSize``.
///
/// The size is `(page_count − freelist_count) × page_size`: the pages in use, read inside
/// the writing transaction, so it includes what that transaction added. Free pages (left by
/// deletes, reused by later writes) and the WAL file are not counted.
enum StoreSize {
    /// The bytes of the pages in use, as the current transaction sees them.
    static func used(_ db: Database) throws -> Int64 {
        let pages = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
        let free = try Int64.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
        let size = try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
        return (pages - free) * size
    }
}

/// Object ids of one collection that eviction must not remove (the objects being written).
struct EvictionGuard: Sendable {
    /// The collection of the protected objects.
    var collection: String
    /// Their ids.
    var ids: Set<String>

    /// No object is protected.
    static let none = EvictionGuard(collection: "", ids: [])
}

extension LocalStore {
    /// The size in use before a write, or nil when the store has no limit (nothing is measured).
    func sizeBeforeWrite(_ db: Database) throws -> Int64? {
        guard configuration.maxStoreSize != nil else { return nil }
        return try StoreSize.used(db)
    }

    /// Throws ``OfflineStoreError/Code/storeFull`` when the transaction grew the store past the
    /// limit, after evicting unused objects first when ``Configuration/evictsWhenFull`` is set.
    /// A transaction that did not grow the store is never refused, so deletes always work.
    ///
    /// - Parameter before: the size returned by ``sizeBeforeWrite(_:)`` (nil: no limit).
    func enforceStoreSize(_ db: Database, before: Int64?, protecting guarded: @autoclosure () -> EvictionGuard = .none) throws {
        guard let before, let limit = configuration.maxStoreSize else { return }
        var after = try StoreSize.used(db)
        guard after > limit, after > before else { return }
        if configuration.evictsWhenFull {
            try evictUnused(db, toFit: limit, protecting: guarded())
            after = try StoreSize.used(db)
            if after <= limit { return }
        }
        throw OfflineStoreError(.storeFull, "the write would grow the store to \(after) bytes, over its limit of \(limit) "
            + "bytes; nothing was written (evict or delete objects, or raise maxStoreSize)")
    }
}
