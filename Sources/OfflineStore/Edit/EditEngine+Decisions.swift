
/// The app's own decisions on queued edits (Docs/Errors.md, Docs/Sync.md): resolving a
/// conflict, acting on a failed entry, cancelling an entry. Each is one transaction that
/// changes nothing when it is refused (its error's fate is ``OfflineStoreError/DataFate/notStored``).
extension EditEngine {
    /// ``ObjectStore/resolve(_:id:with:)``.
    func resolve(_ collection: String, id: String, with resolution: Resolution) throws {
        try OfflineStoreError.refusingEdit { try local.write("resolving \(collection)/\(id)") { db in
            guard let row = try ObjectRow.fetch(db, collection: collection, id: id) else {
                throw OfflineStoreError(.notFound, "object \(collection)/\(id) does not exist")
            }
            guard row.state == .conflicted else {
                throw OfflineStoreError(.notConflicted, "object \(collection)/\(id) is not conflicted (it is \(row.state.rawValue))")
            }
            if case .preserve = resolution { return }
            try ConflictWrites.write(resolution, to: row, validatingWith: try local.collections.descriptor(of: collection),
                                     in: db, now: configuration.now())
        } }
    }

    /// ``ObjectStore/perform(_:on:id:)``: one error action on the object's failed entry.
    func act(_ action: FailedEntryAction, on collection: String, id: String) throws {
        try OfflineStoreError.refusingEdit {
            _ = try local.collections.descriptor(of: collection)
            try local.write("\(action.rawValue) of \(collection)/\(id)") { db in
                try FailedEntryWrites.carryOut(action, collection: collection, id: id, in: db)
            }
        }
    }

    /// ``ObjectStore/cancel(entry:)``: every unsent edit of the entry's object goes.
    func cancel(entry seq: Int64) throws {
        try OfflineStoreError.refusingEdit {
            try local.write("cancelling queue entry \(seq)") { db in
                guard let entry = try QueueTable.entry(db, seq: seq) else {
                    throw OfflineStoreError(.notFound, "no queue entry \(seq)")
                }
                try FailedEntryWrites.rollBack(db, collection: entry.collection, id: entry.objectID)
            }
        }
    }
}
