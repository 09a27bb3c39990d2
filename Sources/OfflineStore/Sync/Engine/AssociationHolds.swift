import GRDB

/// Queue entries that must wait because their object references, through an association
/// (``BackendTraits/associations``), an object whose create the server has not applied yet:
/// sending them would send a temporary id the server does not know.
enum AssociationHolds {
    /// The held-back entries, seq → why; empty when no collection declares associations.
    static func find(_ candidates: [FlushPlan.Candidate], backend: any Backend, in db: Database) throws -> [Int64: String] {
        var associations: [String: [String: String]] = [:]
        for name in Set(candidates.map(\.entry.collection)) {
            let fields = backend.traits(of: name).associations
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
}
