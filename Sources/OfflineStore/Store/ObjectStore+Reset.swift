import GRDB

/// Client reset and full reset (SPEC §8 "unknown client / server lost its data", §10).
///
/// | | client reset | full reset |
/// |---|---|---|
/// | synced objects of synced collections | removed (read again by the next refresh) | removed |
/// | objects with local edits, conflicts or failed entries | kept | removed |
/// | the queue | kept | emptied |
/// | pull cursors, last sync time | cleared | cleared |
/// | local-only collections' objects | kept | removed |
/// | registered collections, app metadata | kept | kept |
///
/// Both wait for a running flush or refresh of this store to finish, and run in one
/// transaction: they happen entirely or not at all.
extension ObjectStore {
    /// Client reset: forgets what the store knows about the server, keeping the app's unsent work.
    ///
    /// Removes every synced object without a local edit (in collections that sync) and
    /// every pull cursor, so the next refresh reads each collection in full. Objects with
    /// local edits, conflicts or failed entries, the whole queue and local-only collections stay.
    ///
    /// ```swift
    /// try await store.resetClient()
    /// try await store.refresh()      // reads everything again
    /// ```
    /// - Throws: a storage error; nothing changes then.
    public func resetClient() async throws {
        let synced = collections().filter { !$0.isLocalOnly }.map(\.name)
        try await flushLock.withLock {
            try write("resetting the client") { db in
                for name in synced {
                    try db.execute(sql: """
                        DELETE FROM objects WHERE collection = ? AND state = 'synced' AND dirty = 0
                        AND NOT EXISTS (SELECT 1 FROM queue WHERE queue.collection = objects.collection AND queue.object_id = objects.id)
                        """, arguments: [name])
                }
                try db.execute(sql: "UPDATE collections SET cursor = NULL")
                try db.execute(sql: "DELETE FROM meta WHERE key = 'lastSync'")
            }
        }
    }

    /// Full reset: deletes every object (local-only collections too), the whole queue —
    /// unsent edits are lost — the pull cursors and the last sync time.
    ///
    /// Registered collections and app metadata (``setMetadata(_:forKey:)``) are kept, so the
    /// store syncs again from scratch with the same settings.
    ///
    /// - Throws: a storage error; nothing changes then.
    public func resetAll() async throws {
        try await flushLock.withLock {
            try write("resetting the store") { db in
                try db.execute(sql: "DELETE FROM objects")
                try db.execute(sql: "DELETE FROM queue")
                try db.execute(sql: "UPDATE collections SET cursor = NULL")
                try db.execute(sql: "DELETE FROM meta WHERE key = 'lastSync'")
            }
        }
    }
}
