extension ObjectCollection {
    /// Keeps an object out of eviction (``ObjectStore/evict(toFit:)``) until ``unpin(_:)``.
    ///
    /// - Throws: ``OfflineStoreError/Code/notFound`` when the object is not in the store.
    public func pin(_ id: String) throws { try setPinned(id, true) }

    /// Lets an object be evicted again.
    ///
    /// - Throws: ``OfflineStoreError/Code/notFound`` when the object is not in the store.
    public func unpin(_ id: String) throws { try setPinned(id, false) }

    /// Whether the object is pinned.
    public func isPinned(_ id: String) throws -> Bool {
        try store.local.isPinned(collection: name, id: id)
    }

    /// Records that the objects were used now, so eviction removes them last.
    public func touch(_ ids: [String]) throws {
        _ = try descriptor()
        try store.local.write("recording use of \(name)") { db in try store.local.recordUse(db, collection: name, ids: ids) }
    }

    private func setPinned(_ id: String, _ pinned: Bool) throws {
        _ = try descriptor()
        guard try store.local.setPinned(pinned, collection: name, id: id) else {
            throw OfflineStoreError(.notFound, "object \(name)/\(id) is not in the store")
        }
    }
}
