import GRDB

/// Immediate mode (Docs/Policies.md, "Write modes"): the edit commits locally first, so it
/// is durable whatever the network does, then the sync engine pushes the queue at once.
extension EditEngine {
    /// Commits the edit, pushes the queue, and answers as the server did: the object as it
    /// now is when nothing of it is left queued; otherwise the failure, after undoing an
    /// online-only edit the server did not take (unless the object moved on meanwhile).
    /// `awaitedUpload` reads where a blob the edit attached stands (``AwaitedUploadRule``),
    /// given the object's id after the flush.
    func editImmediately(_ edit: LocalEdit, of descriptor: CollectionDescriptor, policy: UpdatePolicy,
                         alongside: ((Database) throws -> Void)?,
                         awaitedUpload: ((Database, String) throws -> AwaitedUploadRule.Upload)?) async throws -> JSONValue? {
        let name = descriptor.name, id = edit.objectID
        let (snapshot, writtenRev) = try local.writeEdit("saving \(name)/\(id)") { db -> (ObjectSnapshot, Int64?) in
            let before = try ObjectSnapshot.take(db, collection: name, id: id)
            _ = try apply(edit, to: descriptor, in: db, isolation: .ownTransaction)
            try alongside?(db)
            return (before, try ObjectRow.fetch(db, collection: name, id: id)?.localRev)
        }
        // From here on the edit is committed: every error says what became of it.
        let stop: OfflineStoreError?
        do { stop = try await sync.flushForImmediateWrite() } catch let error as OfflineStoreError {
            throw error.with(.storedAndQueued)  // the push did not run; the edit waits in the queue
        }
        let (row, entries, upload) = try OfflineStoreError.afterStoring(.stored) {
            try local.read("reading \(name)/\(id)") { db in
                // A create the server gave its own id is read under that id (the temporary one is gone).
                let id = try ObjectKeyedTables.serverID(db, for: id, in: name) ?? id
                return (try ObjectRow.fetch(db, collection: name, id: id), try QueueTable.entries(db, collection: name, id: id),
                        try awaitedUpload?(db, id) ?? .done)
            }
        }
        // The call succeeds only when the server applied the edit (nothing left queued).
        let failure: OfflineStoreError, answer: AwaitedEditFate.Answer
        if let failed = entries.first(where: { $0.state == .failed }) {
            failure = OfflineStoreError(.failedEntry, "the server rejected the \(failed.kind.rawValue) of \(name)/\(id)",
                                        status: failed.status, body: failed.responseBody)
            answer = .held
        } else if row?.state == .conflicted {
            // The conflict is kept for the app to resolve, whatever the update policy.
            throw OfflineStoreError(.conflict, "object \(name)/\(id) conflicts with the server's version; resolve it",
                                    dataFate: AwaitedEditFate.decide(.held, policy: policy, undone: false))
        } else if !entries.isEmpty {
            failure = stop ?? OfflineStoreError(.conflict, "the server did not confirm \(name)/\(id)")
            answer = .notTaken
        } else if let unfinished = AwaitedUploadRule.failure(upload, place: "\(name)/\(row?.id ?? id)", stop: stop) {
            // The edit itself is on the server, so there is nothing to undo; the blob waits or failed.
            if unfinished.code == .offline && policy != .updateIfOnline { return row?.effective }
            throw unfinished.with(AwaitedEditFate.decide(.uploadUnfinished, policy: policy, undone: false))
        } else {
            return row?.effective
        }
        if policy == .updateIfOnline {
            guard try OfflineStoreError.afterStoring(.stored, { try undo(snapshot, ifStillAt: writtenRev) }) else {
                throw OfflineStoreError(failure.code, failure.message + "; the object changed meanwhile, so the edit stays queued",
                                        status: failure.status, body: failure.body, retryAfter: failure.retryAfter,
                                        dataFate: AwaitedEditFate.decide(answer, policy: policy, undone: false))
            }
            throw failure.with(AwaitedEditFate.decide(answer, policy: policy, undone: true))
        }
        if failure.code == .offline { return row?.effective }  // durable and queued, as the policy says
        throw failure.with(AwaitedEditFate.decide(answer, policy: policy, undone: false))
    }

    /// Puts the object and its queue entries back as they were before a failed online-only
    /// edit, unless anything else touched the object meanwhile (another edit, or a server
    /// answer applied): then nothing is undone and false is returned.
    private func undo(_ snapshot: ObjectSnapshot, ifStillAt revision: Int64?) throws -> Bool {
        try local.write("undoing an online-only edit") { db in
            let current = try ObjectRow.fetch(db, collection: snapshot.collection, id: snapshot.id)
            guard current?.localRev == revision, current?.persistent == snapshot.row?.persistent,
                  current?.serverVersion == snapshot.row?.serverVersion else { return false }
            try snapshot.restore(db)
            return true
        }
    }
}

/// An object's row and queue entries as they were, to undo an edit that must not stay.
struct ObjectSnapshot: Sendable {
    let collection: String
    let id: String
    let row: ObjectRow?
    /// The object's entries, with what each was sent with.
    let entries: [QueueEntry]

    static func take(_ db: Database, collection: String, id: String) throws -> ObjectSnapshot {
        ObjectSnapshot(collection: collection, id: id, row: try ObjectRow.fetch(db, collection: collection, id: id),
                       entries: try QueueTable.entries(db, collection: collection, id: id))
    }

    /// Puts the row and the entries back. An entry that was in flight when the snapshot was
    /// taken, and still exists, keeps where the flush has taken it since (its state, attempts,
    /// what it was sent with): the edit never folds into an entry in flight, so there is
    /// nothing of the edit in it to undo, and the flush may have answered or withdrawn it since.
    func restore(_ db: Database) throws {
        let wereInFlight = Set(entries.filter { $0.state == .inFlight }.map(\.seq))
        let current = wereInFlight.isEmpty ? [] : try QueueTable.entries(db, collection: collection, id: id)
        try ObjectRow(collection: collection, id: id).delete(db)
        try QueueTable.removeAll(db, collection: collection, id: id)
        try row?.save(db)
        try QueueTable.restore(entries, in: db)
        for entry in current where wereInFlight.contains(entry.seq) { try QueueTable.restoreLifecycle(of: entry, in: db) }
    }
}
