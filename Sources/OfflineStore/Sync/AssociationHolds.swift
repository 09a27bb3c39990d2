import GRDB

/// Queue entries that must wait because their object references, through an association
/// (``Backend/associations(of:)``), an object whose create the server has not applied yet:
/// sending them would send a temporary id the server does not know.
enum AssociationHolds {
    /// The held-back entries, seq → why; empty when no collection declares associations.
    static func find(_ candidates: [FlushPlan.Candidate], backend: any Backend, in db: Database) throws -> [Int64: String] {
        var associations: [String: [String: String]] = [:]
        for name in Set(candidates.map(\.entry.collection)) {
            let fields = backend.associations(of: name)
            if !fields.isEmpty { associations[name] = fields }
        }
        guard !associations.isEmpty else { return [:] }
        var uncreated: [ObjectKey: QueueEntry.State] = [:]
        for c in candidates where c.entry.kind == .create {
            uncreated[ObjectKey(collection: c.entry.collection, id: c.entry.objectID)] = c.entry.state
        }
        var held: [Int64: String] = [:]
        for c in candidates where c.entry.kind != .delete && c.entry.state != .failed {
            guard let fields = associations[c.entry.collection],
                  let object = try ObjectRow.fetch(db, collection: c.entry.collection, id: c.entry.objectID)?.local
            else { continue }
            for (field, target) in fields.sorted(by: { $0.key < $1.key }) {
                guard let id = object[field]?.stringValue, let state = uncreated[ObjectKey(collection: target, id: id)],
                      !(target == c.entry.collection && id == c.entry.objectID) else { continue }
                held[c.entry.seq] = state == .failed
                    ? "held back: \(field) references \(target)/\(id), whose create failed"
                    : "held back: \(field) references \(target)/\(id), which is not created on the server yet"
                break
            }
        }
        return held
    }

    /// Records why each held entry waits (its `last_error`), so the queue shows it.
    static func record(_ held: [Int64: String], in db: Database) throws {
        for (seq, reason) in held {
            try db.execute(sql: "UPDATE queue SET last_error = ? WHERE seq = ? AND last_error IS NOT ?",
                           arguments: [reason, seq, reason])
        }
    }
}

extension ObjectStore {
    /// The entries the flush must hold back for associations, with their reasons recorded.
    func associationHolds(_ candidates: [FlushPlan.Candidate], backend: any Backend) throws -> Set<Int64> {
        let held = try read("checking associations") { db in try AssociationHolds.find(candidates, backend: backend, in: db) }
        if !held.isEmpty { try write("recording held-back entries") { db in try AssociationHolds.record(held, in: db) } }
        return Set(held.keys)
    }
}
