import GRDB

extension ObjectStore {
    /// The objects left conflicted, with base, local and server copies, optionally of one collection.
    ///
    /// Conflicts are stored, so they survive restarts until resolved.
    public func conflicts(in collection: String? = nil) throws -> [Conflict] {
        try read("listing conflicts") { db in
            try ObjectRow.conflicted(db, in: collection).map(ConflictRule.conflict(of:))
        }
    }

    /// Resolves a conflicted object: `.keepLocal` resends the local edit on the server's
    /// version, `.keepServer` drops it, `.merged(json)` queues that object as an update
    /// on the server's version. Send with `flush` or `sync`.
    ///
    /// - Throws: ``OfflineStoreError`` `notFound`, `notConflicted`, or a validation error for merged JSON.
    public func resolve(_ collection: String, id: String, with resolution: Resolution) throws {
        try write("resolving \(collection)/\(id)") { db in
            guard let row = try ObjectRow.fetch(db, collection: collection, id: id) else {
                throw OfflineStoreError(.notFound, "\(collection)/\(id) does not exist")
            }
            guard row.state == .conflicted else {
                throw OfflineStoreError(.notConflicted, "\(collection)/\(id) is not conflicted (it is \(row.state.rawValue))")
            }
            if case .preserve = resolution { return }
            try ConflictWrites.apply(resolution, to: row, validatingWith: try descriptor(of: collection), in: db,
                                     now: configuration.now())
        }
    }
}
