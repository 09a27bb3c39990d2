/// Records that arrive from the server, brought to the collection's current shape before
/// the store applies them (Docs/Models.md, "Evolving a model").
///
/// The server does not say which release wrote a record, so every record goes through
/// every step (``MigrationChain/upgrade(_:from:collection:)`` with no version); steps leave a
/// record already in the new shape as it is. A record whose migration throws is applied as
/// it came, and typed reads report it undecodable with the migration's error. A collection
/// without migrations costs nothing here: its records keep their canonical text.
enum IncomingRecords {
    /// The changes of a pull, a fetch or a search, upgraded.
    static func upgrade(_ changes: [RemoteChange], of collection: CollectionDescriptor) -> [RemoteChange] {
        let chain = collection.migrationChain
        guard !chain.isEmpty else { return changes }
        return changes.map { change in
            guard let record = change.record,
                  let upgraded = (try? chain.upgrade(record, from: nil, collection: collection.name)) ?? nil else { return change }
            return RemoteChange(id: change.id, record: upgraded, version: change.version)
        }
    }

    /// The server's answers to pushed operations: the records they carry (the stored copy,
    /// the server's copy of a conflict), upgraded.
    static func upgrade(_ outcomes: [PushOutcome], of collection: CollectionDescriptor) -> [PushOutcome] {
        let chain = collection.migrationChain
        guard !chain.isEmpty else { return outcomes }
        func upgraded(_ record: JSONValue?) -> JSONValue? {
            guard let record else { return nil }
            return ((try? chain.upgrade(record, from: nil, collection: collection.name)) ?? nil) ?? record
        }
        return outcomes.map { outcome in
            switch outcome {
            case .applied(let record, let version): .applied(record: upgraded(record), version: version)
            case .createdThenDeleted(let record, let version): .createdThenDeleted(record: upgraded(record) ?? record, version: version)
            case .conflict(let server, let version): .conflict(server: upgraded(server), version: version)
            case .rejected, .retry: outcome
            }
        }
    }
}
