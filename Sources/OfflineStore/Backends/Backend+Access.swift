/// What the signed-in user may do in a collection on the server, as its preparation found
/// out (Docs/Auth.md, "Sharing and lost access").
public enum CollectionAccess: String, Sendable, Hashable, Codable, CaseIterable {
    /// The user may read and write the collection's records (or created the collection).
    case readWrite = "read-write"
    /// The user may read the collection but not write it: the store pulls it and refuses
    /// local edits to it with ``OfflineStoreError/Code/forbidden`` until access returns.
    case readOnly = "read-only"
}

extension Backend {
    /// Prepares the collection (``prepare(collection:)``) and says it is writable: the
    /// default for backends that cannot tell.
    public func prepareAccess(collection: String) async throws -> CollectionAccess {
        try await prepare(collection: collection)
        return .readWrite
    }
}
