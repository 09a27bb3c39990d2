
extension ObjectCollection {
    /// How many objects of the collection are in each sync state, in one query.
    ///
    /// Locally deleted objects count under ``SyncState/deleted`` (unlike ``count(where:)``,
    /// which leaves them out); a state no object is in is absent from the result.
    ///
    /// ```swift
    /// let counts = try store.collection("todos").stateCounts()
    /// let pending = [.created, .updated, .deleted].reduce(0) { $0 + (counts[$1] ?? 0) }
    /// ```
    ///
    /// - Throws: ``OfflineStoreError/Code/unknownCollection``; a storage error.
    public func stateCounts() throws -> [SyncState: Int] {
        _ = try descriptor()
        return try store.local.stateCounts(in: name)
    }
}
