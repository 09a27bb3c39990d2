import GRDB

extension ObjectStore {
    /// The prefix that keeps app metadata apart from the engine's own keys in the `meta` table.
    static let appMetadataPrefix = "app:"

    /// Stores a small piece of app metadata in the store file, or removes it (`nil`).
    ///
    /// App metadata lives in the same SQLite file as the objects, apart from the engine's
    /// own bookkeeping, and survives ``resetSyncState(keepingPendingEdits:)`` and ``resetAll()``. Use it for
    /// settings that belong with the data, e.g. which server a store syncs with. Never
    /// store secrets: the file is not encrypted.
    ///
    /// ```swift
    /// try store.setMetadata("https://kinto.example/v1", forKey: "server")
    /// let server = try store.metadata(forKey: "server")
    /// ```
    /// - Parameters:
    ///   - value: the text to store; nil removes the key.
    ///   - key: 1–256 bytes.
    /// - Throws: ``OfflineStoreError`` `invalidOperation` for an empty or too long key,
    ///   or a storage error.
    public func setMetadata(_ value: String?, forKey key: String) throws {
        try Self.checkMetadataKey(key)
        let stored = Self.appMetadataPrefix + key
        try write("saving metadata \(key)") { db in try MetaTable.setValue(value, forKey: stored, in: db) }
    }

    /// The app metadata stored under `key` with ``setMetadata(_:forKey:)``, or nil.
    ///
    /// - Throws: ``OfflineStoreError`` `invalidOperation` for an empty or too long key,
    ///   or a storage error.
    public func metadata(forKey key: String) throws -> String? {
        try Self.checkMetadataKey(key)
        return try read("reading metadata \(key)") { db in
            try MetaTable.value(forKey: Self.appMetadataPrefix + key, in: db)
        }
    }

    private static func checkMetadataKey(_ key: String) throws {
        guard !key.isEmpty, key.utf8.count <= 256 else {
            throw OfflineStoreError(.invalidOperation, "a metadata key must be 1–256 bytes")
        }
    }
}
