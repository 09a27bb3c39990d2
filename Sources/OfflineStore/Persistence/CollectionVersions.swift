import GRDB

/// The stored side of model evolution (Docs/Models.md, "Evolving a model"): the schema
/// version each collection's stored copies are at (`collections.schema_version`), and the
/// rewrite of those copies when a newer version is registered. Every function runs inside
/// the registering transaction, so a migration commits whole or not at all.
enum CollectionVersions {
    /// What a registration did to the stored copies.
    struct Outcome: Sendable, Equatable {
        /// The objects whose copies were rewritten.
        var migrated = 0
        /// The objects left as they were because a step threw for one of their copies.
        var failed: [String] = []
    }

    /// Decides with ``SchemaVersionRule`` what registering `descriptor` means for its stored
    /// copies, and does it: records the version of a new collection, migrates every local,
    /// base and persistent copy and every sent payload of a queued edit, or refuses.
    ///
    /// - Parameter existed: whether the collection was registered before this registration.
    /// - Throws: ``OfflineStoreError/Code/modelTooNew`` when the store holds a newer version
    ///   (the caller's transaction then rolls back, so nothing changes).
    @discardableResult
    static func register(_ descriptor: CollectionDescriptor, existed: Bool, in db: Database) throws -> Outcome {
        let stored = existed ? try version(of: descriptor.name, in: db) : nil
        switch SchemaVersionRule.decide(stored: stored, registered: descriptor.schemaVersion) {
        case .record:
            if stored == nil { try setVersion(descriptor.schemaVersion, of: descriptor.name, in: db) }
            return Outcome()
        case .refuse(let stored, let registered):
            throw SchemaVersionRule.downgradeError(collection: descriptor.name, stored: stored, registered: registered)
        case .migrate(let from, let to):
            let outcome = try migrate(descriptor.name, with: descriptor.migrationChain, from: from, in: db)
            try setVersion(to, of: descriptor.name, in: db)
            return outcome
        }
    }

    /// The recorded schema version of a collection (nil when it is not registered).
    static func version(of collection: String, in db: Database) throws -> Int? {
        try Int.fetchOne(db, sql: "SELECT schema_version FROM collections WHERE name = ?", arguments: [collection])
    }

    private static func setVersion(_ version: Int, of collection: String, in db: Database) throws {
        try db.execute(sql: "UPDATE collections SET schema_version = ? WHERE name = ?", arguments: [version, collection])
    }

    /// Rewrites every stored copy of `collection` from version `stored` to the chain's:
    /// an object's persistent, local and base copies and the payloads its in-flight or
    /// failed queue entries were sent with change together, or (when a step throws for one
    /// of them) not at all. Server versions, states and queue positions stay: nothing is
    /// pushed because of a migration, and the next refresh compares versions as before.
    private static func migrate(_ collection: String, with chain: MigrationChain, from stored: Int,
                                in db: Database) throws -> Outcome {
        var outcome = Outcome()
        guard !chain.isEmpty else { return outcome }
        func upgraded(_ text: String?) throws(MigrationFailure) -> String?? {
            guard let text, let value = try? JSONValue(parsing: text) else { return .none }
            return try chain.upgrade(value, from: stored, collection: collection).map { $0.serialized() }
        }
        let payloads = try Row.fetchAll(db, sql: """
            SELECT seq, object_id, sent_data FROM queue WHERE collection = ? AND sent_data IS NOT NULL
            """, arguments: [collection])
        var payloadsByID: [String: [(seq: Int64, text: String)]] = [:]
        for row in payloads { payloadsByID[row["object_id"], default: []].append((row["seq"], row["sent_data"])) }

        let update = try db.makeStatement(sql: "UPDATE objects SET persistent = ?, local = ?, base = ? WHERE collection = ? AND id = ?")
        let updatePayload = try db.makeStatement(sql: "UPDATE queue SET sent_data = ? WHERE seq = ?")
        let rows = try Row.fetchCursor(db, sql: "SELECT id, persistent, local, base FROM objects WHERE collection = ?",
                                       arguments: [collection])
        var changes: [(id: String, copies: [String?], payloads: [(Int64, String)])] = []
        while let row = try rows.next() {
            let id: String = row["id"]
            let copies: [String?] = [row["persistent"], row["local"], row["base"]]
            do throws(MigrationFailure) {
                var newCopies = copies, changed = false
                for (index, copy) in copies.enumerated() {
                    if case .some(.some(let text)) = try upgraded(copy) { newCopies[index] = text; changed = true }
                }
                var newPayloads: [(Int64, String)] = []
                for payload in payloadsByID[id] ?? [] {
                    if case .some(.some(let text)) = try upgraded(payload.text) { newPayloads.append((payload.seq, text)) }
                }
                if changed || !newPayloads.isEmpty { changes.append((id, newCopies, newPayloads)) }
            } catch {
                outcome.failed.append(id)
            }
        }
        for change in changes {
            try update.execute(arguments: [change.copies[0], change.copies[1], change.copies[2], collection, change.id])
            for (seq, text) in change.payloads { try updatePayload.execute(arguments: [text, seq]) }
        }
        outcome.migrated = changes.count
        return outcome
    }
}
